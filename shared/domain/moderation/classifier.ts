/**
 * The pure classifier: one message, what the engine remembers of its sender, and the rule set in;
 * the first rule it breaks (or null) out. No I/O, no clock: everything it needs is passed in.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_RULES, type LabelledPattern, type Rule, type RuleSet, type RuleWeight } from './rules';

export interface RecentMessage {
  /** Epoch milliseconds. */
  at: number;
  fingerprint: string;
}

export interface MessageToClassify {
  text: string;
  /** Epoch milliseconds. */
  sentAt: number;
  isNewMember: boolean;
  /** The sender's earlier messages still within the rule set's memory window. */
  recent: RecentMessage[];
}

export interface RuleMatch {
  rule: string;
  weight: RuleWeight;
  reason: string;
}

/** Same text up to case, spacing and punctuation: what "repeated identical messages" compares. */
export function fingerprintOf(text: string): string {
  const normal = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}@]+/gu, ' ')
    .trim();
  return createHash('sha256').update(normal).digest('base64url').slice(0, 16);
}

function firstPattern(text: string, patterns: LabelledPattern[], negations?: RegExp): string | undefined {
  for (const { label, pattern } of patterns) {
    const found = pattern.exec(text);
    if (!found) continue;
    if (negations?.test(text.slice(0, found.index))) continue;
    return label;
  }
  return undefined;
}

/** The host a link match points at: what follows a scheme, up to the first slash. */
const hostOf = (match: string) =>
  match
    .replace(/^https?:\/\//i, '')
    .split(/[/?#:\s]/)[0]
    .replace(/^www\./i, '')
    .toLowerCase();
const allowed = (host: string, allowlist: string[]) => allowlist.some((d) => host === d || host.endsWith(`.${d}`));

/** Like firstPattern, but every match to an allowlisted domain is passed over (a message may carry both kinds). */
function firstOutsideAllowlist(text: string, patterns: LabelledPattern[], allowlist: string[]): string | undefined {
  const domains = allowlist.map((d) => d.toLowerCase().replace(/^www\./, ''));
  for (const { label, pattern } of patterns) {
    const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    for (const found of text.matchAll(global)) if (!allowed(hostOf(found[0]), domains)) return label;
  }
  return undefined;
}

const withinSeconds = (recent: RecentMessage[], sentAt: number, seconds: number) =>
  recent.filter((m) => sentAt - m.at < seconds * 1000 && m.at <= sentAt);

type Matcher<K extends Rule['kind']> = (
  rule: Extract<Rule, { kind: K }>,
  msg: MessageToClassify,
  rules: RuleSet,
) => string | undefined;

/** One matcher per kind of rule; each returns the reason when the message breaks the rule. */
const MATCHERS: { [K in Rule['kind']]: Matcher<K> } = {
  phrases: (rule, msg, rules) => {
    const label = firstPattern(msg.text, rule.phrases, rules.negations);
    return label && `Scam phrase: ${label}`;
  },
  patterns: (rule, msg) => {
    const label = rule.allowlist?.length
      ? firstOutsideAllowlist(msg.text, rule.patterns, rule.allowlist)
      : firstPattern(msg.text, rule.patterns);
    return label && `${label} from a new member`;
  },
  flood: (rule, msg) => {
    const count = withinSeconds(msg.recent, msg.sentAt, rule.windowSeconds).length + 1;
    return count > rule.maxMessages
      ? `${count} messages in ${rule.windowSeconds} seconds (limit ${rule.maxMessages})`
      : undefined;
  },
  repeat: (rule, msg) => {
    const fingerprint = fingerprintOf(msg.text);
    const copies = withinSeconds(msg.recent, msg.sentAt, rule.windowSeconds).filter(
      (m) => m.fingerprint === fingerprint,
    ).length;
    return copies >= rule.maxCopies
      ? `The same message ${copies + 1} times in ${rule.windowSeconds / 60} minutes`
      : undefined;
  },
  mentions: (rule, msg) => {
    // @name (Telegram, Discord, X) or u/name and /u/name (Reddit), each account once whatever its case.
    const found = msg.text.match(/(?<![\w@])@\w{2,}|(?<![\w/])\/?u\/[\w-]{3,20}/gi) ?? [];
    const mentions = new Set(found.map((m) => m.toLowerCase().replace(/^\/?u\//, 'u/'))).size;
    return mentions > rule.maxMentions ? `${mentions} mentions in one message (limit ${rule.maxMentions})` : undefined;
  },
  shouting: (rule, msg) => {
    const letters = msg.text.match(/\p{L}/gu) ?? [];
    const upper = letters.filter((c) => c !== c.toLowerCase()).length;
    return letters.length >= rule.minLetters && upper / letters.length >= rule.upperRatio
      ? 'Mostly capital letters'
      : undefined;
  },
  words: (rule, msg) => {
    const lower = msg.text.toLowerCase();
    const word = rule.words.find((w) =>
      new RegExp(`(^|[^\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}])`, 'u').test(lower),
    );
    return word && `Blocked word: ${word}`;
  },
};

/**
 * Every rule the message breaks, whoever sent it: the detector weighs a rule differently for new and
 * established members, so `newMembersOnly` is its concern, not a filter here. Rules the detector
 * reads better itself (links, found the way a person reads them) are passed in `skip`.
 */
export function matchAll(msg: MessageToClassify, rules: RuleSet, skip: ReadonlySet<string>): RuleMatch[] {
  return [...matches(msg, rules, (rule) => !skip.has(rule.id))];
}

/** The rules the message breaks, in the rule set's order, among those `applies` keeps; lazily. */
function* matches(msg: MessageToClassify, rules: RuleSet, applies: (rule: Rule) => boolean): Generator<RuleMatch> {
  for (const rule of rules.rules) {
    if (!applies(rule)) continue;
    const reason = (MATCHERS[rule.kind] as Matcher<Rule['kind']>)(rule, msg, rules);
    if (reason) yield { rule: rule.id, weight: rule.weight, reason };
  }
}

/** The first rule the message breaks, new-member rules only for new members: each rule on its own. */
export function classify(msg: MessageToClassify, rules: RuleSet = DEFAULT_RULES): RuleMatch | null {
  for (const match of matches(msg, rules, (rule) => !rule.newMembersOnly || msg.isNewMember)) return match;
  return null;
}
