/**
 * The one spam detector: the community's rules, the signals of signals.ts, look-alikes of its official
 * domains and handles, known phishing domains, what its moderators taught the text model and what
 * several owners confirmed as spam, each adding evidence (natural-log odds) to one score. The
 * community's sensitivity turns the score into how bad the message is (a removal, an offence, a severe
 * one), and the action ladder (actions.ts) into what happens. Pure: everything it needs is passed in.
 */
import { createHash } from 'node:crypto';
import { matchAll, type MessageToClassify } from '../classifier';
import type { RuleId } from '../communityRules';
import type { RuleSet, RuleWeight } from '../rules';
import { lookalikeDomains, lookalikeHandles, impersonates } from './lookalikes';
import { readMessage, type Reading } from './reading';
import { PHRASE_SIGNALS, SHAPE_SIGNALS, type Evidence } from './signals';
import { modelEvidence, type TextModel } from './textModel';

export type Sensitivity = 'low' | 'medium' | 'high';

/** The score from which a message is removed, counts as an offence, counts as a severe one. */
export const SENSITIVITY_THRESHOLDS: Record<Sensitivity, Record<RuleWeight, number>> = {
  low: { minor: 0.8, offence: 0.92, severe: 0.985 },
  medium: { minor: 0.6, offence: 0.85, severe: 0.97 },
  high: { minor: 0.45, offence: 0.75, severe: 0.95 },
};

/** Where the evidence starts: most messages are not spam, fewer so from someone who just joined. */
const PRIOR: Evidence = { established: -3, newMember: -2.5 };

/** The community's rules as evidence: how much breaking each one says, by who broke it. */
const RULE_EVIDENCE: Record<string, Evidence> = {
  scam_phrase: { established: 7.5, newMember: 7.5 },
  invite_link: { established: 2.5, newMember: 5 },
  wallet_address: { established: 1.5, newMember: 4.5 },
  flood: { established: 5.5, newMember: 5.5 },
  repeated_message: { established: 5.5, newMember: 5.5 },
  mass_mentions: { established: 5.5, newMember: 5.5 },
  blocked_word: { established: 5.5, newMember: 5.5 },
  // Capital letters alone never remove an established member's message.
  shouting: { established: 1.2, newMember: 1.5 },
};

const LINK: Evidence = { established: 0.8, newMember: 4.5 };
const PHISHING: Evidence = { established: 8, newMember: 8 };
const LOOKALIKE_DOMAIN: Evidence = { established: 6, newMember: 6 };
const LOOKALIKE_HANDLE: Evidence = { established: 4, newMember: 4.5 };
const IMPERSONATION: Evidence = { established: 3, newMember: 3.5 };
const KNOWN_SPAM: Evidence = { established: 6, newMember: 6 };
const KNOWN_SPAMMER: Evidence = { established: 3, newMember: 4 };
/** The text model's evidence is capped: it is one voice among the signals. */
const MODEL_LIMIT = 7;

/**
 * How much the text model's evidence counts: damped while it knows only the starter examples, more
 * as the community teaches it (the more examples, the less naive Bayes' guesses are noise).
 */
export const modelWeight = (taught: number) => (taught === 0 ? 0.6 : Math.min(2.5, 0.6 + taught / 400));

/** What the community's settings and the deployment's lists bring to one judgement. */
export interface DetectorContext {
  /** The messages of the batch as already read (by text), so none is read twice. */
  readings: ReadonlyMap<string, Reading>;
  /** Known phishing hosts among those of the messages judged together (phishingLists.ts). */
  phishingHosts: ReadonlySet<string>;
  /** Well-known domains phishing imitates (the phishing list's own), beside the community's official ones. */
  phishingTargets: readonly string[];
  /** Fingerprints of messages communities of different owners confirmed as spam. */
  knownSpam: ReadonlySet<string>;
  /** Senders (platform account ids) communities of different owners banned for spam. */
  knownSpammers: ReadonlySet<string>;
  /** The built-in starter knowledge with what the community taught; null: none loaded. */
  model: TextModel | null;
  /** Examples the community taught (the model's weight grows with them). */
  taught: number;
  /** The community's own moderators (whitelisted usernames): names imitating them count against a sender. */
  adminNames: readonly string[];
}

export const EMPTY_CONTEXT: DetectorContext = {
  readings: new Map(),
  phishingHosts: new Set(),
  phishingTargets: [],
  knownSpam: new Set(),
  knownSpammers: new Set(),
  model: null,
  taught: 0,
  adminNames: [],
};

export interface MessageToJudge extends MessageToClassify {
  /** The sender's account id on the platform, where it names one account everywhere (Telegram, Reddit, X). */
  senderId?: string;
  username?: string;
  displayName?: string;
}

export interface FiredSignal {
  id: string;
  label: string;
  evidence: number;
}

export interface Judgement {
  /** 0..1: how sure the detector is that the message is spam. */
  score: number;
  /** Every signal that added evidence for spam, strongest first. */
  signals: FiredSignal[];
  /** How bad the message is at the community's sensitivity; null: it stays. */
  weight: RuleWeight | null;
}

/** Links the detector reads itself (linkify-it), rather than by the rule's pattern. */
const READ_HERE = new Set(['link', 'wallet_address']);

const allowedHost = (host: string, domains: readonly string[]) =>
  domains.some((d) => host === d || host.endsWith(`.${d}`));

export function judge(msg: MessageToJudge, rules: RuleSet, context: DetectorContext): Judgement {
  const reading = context.readings.get(msg.text) ?? readMessage(msg.text);
  const settings = rules.detector;
  const on = (rule: RuleId) => settings.enabled.has(rule);
  const side = msg.isNewMember ? 'newMember' : 'established';
  const fired: FiredSignal[] = [];
  const add = (id: string, label: string, evidence: Evidence, strength = 1) =>
    fired.push({ id, label, evidence: evidence[side] * strength });

  for (const match of matchAll({ ...msg, text: reading.cased }, rules, READ_HERE)) {
    const evidence = Object.hasOwn(RULE_EVIDENCE, match.rule) ? RULE_EVIDENCE[match.rule] : null;
    if (evidence) add(match.rule, match.reason, evidence);
  }
  for (const signal of PHRASE_SIGNALS)
    if (on(signal.rule) && signal.pattern.test(reading.text)) add(signal.id, signal.label, signal.evidence);
  for (const signal of SHAPE_SIGNALS) {
    const strength = on(signal.rule) ? signal.strength(reading) : 0;
    if (strength > 0) add(signal.id, signal.label, signal.evidence, strength);
  }

  const trusted = [...settings.linkAllowlist, ...settings.officialDomains];
  const outside = reading.links.filter((l) => !allowedHost(l.host, trusted));
  if (on('link') && outside.length) add('link', msg.isNewMember ? 'URL from a new member' : 'Link', LINK);
  if (on('phishing')) {
    const phishing = outside.find((l) => context.phishingHosts.has(l.host));
    if (phishing) add('phishing_domain', `Known phishing domain: ${phishing.host}`, PHISHING);
    const lookalike =
      lookalikeDomains(outside, settings.officialDomains) ?? lookalikeDomains(outside, context.phishingTargets, false);
    if (lookalike) add('lookalike_domain', `Look-alike of ${lookalike.of}: ${lookalike.host}`, LOOKALIKE_DOMAIN);
    const handle = lookalikeHandles(reading.mentions, settings.officialHandles);
    if (handle) add('lookalike_handle', `Look-alike of @${handle.of}: ${handle.mention}`, LOOKALIKE_HANDLE);
    const imitated = impersonates(
      [msg.username, msg.displayName],
      [...settings.officialHandles, ...context.adminNames],
    );
    if (imitated) add('impersonation', `Name imitating ${imitated}`, IMPERSONATION);
  }
  if (on('shared_spam') && context.knownSpam.has(spamFingerprint(reading)))
    add('known_spam', 'Confirmed as spam in communities of several owners', KNOWN_SPAM);
  if (on('shared_spam') && msg.senderId && context.knownSpammers.has(msg.senderId))
    add('known_spammer', 'Sender banned for spam in communities of several owners', KNOWN_SPAMMER);
  if (on('text_model') && context.model) {
    const evidence = Math.max(
      -MODEL_LIMIT,
      Math.min(MODEL_LIMIT, modelEvidence(context.model, reading) * modelWeight(context.taught)),
    );
    if (evidence !== 0) fired.push({ id: 'text_model', label: 'What the community taught', evidence });
  }

  // A short question without a link is a member asking ("where do I claim the airdrop?"), rarely a pitch:
  // what its phrases say counts for little.
  if (isPlainQuestion(reading))
    for (const signal of fired) if (PHRASE_IDS.has(signal.id)) signal.evidence *= QUESTION_DAMPING;
  const counted = strongestOfEachFamily(fired);
  const z = PRIOR[side] + counted.reduce((sum, s) => sum + s.evidence, 0);
  const score = Math.round((1 / (1 + Math.exp(-z))) * 10_000) / 10_000;
  const thresholds = SENSITIVITY_THRESHOLDS[settings.sensitivity];
  return {
    score,
    signals: counted.filter((s) => s.evidence > 0).sort((a, b) => b.evidence - a.evidence),
    weight: WORST_FIRST.find((w) => score >= thresholds[w]) ?? null,
  };
}

const WORST_FIRST: RuleWeight[] = ['severe', 'offence', 'minor'];
const QUESTION_DAMPING = 0.2;
const PHRASE_IDS = new Set(['scam_phrase', ...PHRASE_SIGNALS.map((p) => p.id)]);
const isPlainQuestion = (r: Reading) => r.raw.trimEnd().endsWith('?') && r.words.length <= 15 && r.links.length === 0;

/**
 * Signals that say the same thing (a member's link, a chat invite, a message that is only a link) count
 * once, at the strongest: one invite is not three offences.
 */
const FAMILIES = new Map<string, string>([
  ['link', 'link'],
  ['invite_link', 'link'],
  ['chat_link', 'link'],
  ['bare_link', 'link'],
  ['channel_promotion', 'promotion'],
  ['subscribe', 'promotion'],
]);

function strongestOfEachFamily(fired: FiredSignal[]): FiredSignal[] {
  const best = new Map<string, FiredSignal>();
  const rest: FiredSignal[] = [];
  for (const signal of fired) {
    const family = FAMILIES.get(signal.id);
    if (!family) rest.push(signal);
    else if ((best.get(family)?.evidence ?? Number.NEGATIVE_INFINITY) < signal.evidence) best.set(family, signal);
  }
  return [...best.values(), ...rest];
}

/**
 * A message's words with what changes between copies of one spam campaign taken out (case, look-alike
 * letters, spacing, punctuation, words with digits): near-duplicates share it.
 */
export function spamFingerprint(reading: Reading): string {
  const words = reading.words.filter((w) => !/\d/.test(w)).join(' ');
  return createHash('sha256').update(words).digest('base64url').slice(0, 22);
}
