/**
 * Per-community rules: the owner's switches and thresholds over the default rule set
 * (rules.ts). The stored document is always complete (defaults filled in); `ruleSetOf` turns it into
 * the RuleSet the classifier walks, so the engine itself knows nothing of per-community settings.
 */
import { DEFAULT_RULES, type DetectorSettings, type Rule, type RuleSet } from './rules';

export type RulesMode = 'enforce' | 'observe';

/**
 * Whether a community only records what it decides (observe mode): the one place the mode becomes
 * "recorded, never sent", for a decision when it is scheduled and for its delivery before each try.
 */
export const observes = (rules: { mode: RulesMode }): boolean => rules.mode === 'observe';

/** The thresholds each rule exposes, by rule id; every rule also has `enabled`. */
export interface RuleSettings {
  scam_phrase: { enabled: boolean };
  invite_link: { enabled: boolean };
  wallet_address: { enabled: boolean };
  link: { enabled: boolean };
  flood: { enabled: boolean; max_messages: number; window_seconds: number };
  repeated_message: { enabled: boolean; max_copies: number; window_seconds: number };
  mass_mentions: { enabled: boolean; max_mentions: number };
  blocked_word: { enabled: boolean };
  shouting: { enabled: boolean; min_letters: number; upper_ratio: number };
  phishing: { enabled: boolean };
  phone_number: { enabled: boolean };
  mixed_script: { enabled: boolean };
  text_model: { enabled: boolean };
  shared_spam: { enabled: boolean };
}
export type RuleId = keyof RuleSettings;

export type Sensitivity = DetectorSettings['sensitivity'];

export interface CommunityRules {
  mode: RulesMode;
  /** How sure the detector must be before it removes, warns, mutes, bans. */
  sensitivity: Sensitivity;
  /** The community's own sites: their look-alikes count against a message; links to them never do. */
  official_domains: string[];
  /** The community's own accounts: look-alikes in mentions and senders' names count against a message. */
  official_handles: string[];
  rules: RuleSettings;
  /** Domains (and their subdomains) a new member may link to. */
  link_allowlist: string[];
  /** Added to the built-in blocked words. */
  blocked_words: string[];
  /** Warnings before an offence escalates to a mute (the built-in ladder warns once). */
  warn_limit: number;
  /** How long a member counts as new (new-member rules: links, invites, wallet addresses). */
  new_member_days: number;
  captcha: { enabled: boolean; timeout_seconds: number };
}

const ruleById = <K extends Rule['kind']>(id: string) =>
  DEFAULT_RULES.rules.find((r) => r.id === id) as Extract<Rule, { kind: K }>;
const flood = ruleById<'flood'>('flood');
const repeat = ruleById<'repeat'>('repeated_message');
const mentions = ruleById<'mentions'>('mass_mentions');
const shouting = ruleById<'shouting'>('shouting');

/** Today's rule set, as a rules document. */
export const DEFAULT_COMMUNITY_RULES: CommunityRules = {
  mode: 'enforce',
  sensitivity: 'medium',
  official_domains: [],
  official_handles: [],
  rules: {
    scam_phrase: { enabled: true },
    invite_link: { enabled: true },
    wallet_address: { enabled: true },
    link: { enabled: true },
    flood: { enabled: true, max_messages: flood.maxMessages, window_seconds: flood.windowSeconds },
    repeated_message: { enabled: true, max_copies: repeat.maxCopies, window_seconds: repeat.windowSeconds },
    mass_mentions: { enabled: true, max_mentions: mentions.maxMentions },
    blocked_word: { enabled: true },
    shouting: { enabled: true, min_letters: shouting.minLetters, upper_ratio: shouting.upperRatio },
    phishing: { enabled: true },
    phone_number: { enabled: true },
    mixed_script: { enabled: true },
    text_model: { enabled: true },
    shared_spam: { enabled: true },
  },
  link_allowlist: [],
  blocked_words: [],
  warn_limit: 1,
  new_member_days: DEFAULT_RULES.newMemberDays,
  captcha: { enabled: false, timeout_seconds: 120 },
};

/** A partial document (PUT) laid over the current one: top-level fields replace, rule settings merge per rule. */
export function mergeRules(
  current: CommunityRules,
  change: Partial<Omit<CommunityRules, 'rules' | 'captcha'>> & {
    rules?: Partial<{ [K in RuleId]: Partial<RuleSettings[K]> }>;
    captcha?: Partial<CommunityRules['captcha']>;
  },
): CommunityRules {
  const rules = { ...current.rules } as Record<RuleId, object>;
  for (const [id, settings] of Object.entries(change.rules ?? {}))
    rules[id as RuleId] = { ...rules[id as RuleId], ...settings };
  return {
    mode: change.mode ?? current.mode,
    sensitivity: change.sensitivity ?? current.sensitivity,
    official_domains: change.official_domains ?? current.official_domains,
    official_handles: change.official_handles ?? current.official_handles,
    rules: rules as RuleSettings,
    link_allowlist: change.link_allowlist ?? current.link_allowlist,
    blocked_words: change.blocked_words ?? current.blocked_words,
    warn_limit: change.warn_limit ?? current.warn_limit,
    new_member_days: change.new_member_days ?? current.new_member_days,
    captcha: { ...current.captcha, ...(change.captcha ?? {}) },
  };
}

/** Each rule's thresholds applied to its built-in definition; the rule table says which settings go where. */
const APPLY: { [K in RuleId]: (rule: Rule, s: RuleSettings[K], doc: CommunityRules) => Rule } = {
  scam_phrase: (r) => r,
  invite_link: (r) => r,
  wallet_address: (r) => r,
  link: (r, _s, doc) => ({ ...r, allowlist: doc.link_allowlist }) as Rule,
  flood: (r, s) => ({ ...r, maxMessages: s.max_messages, windowSeconds: s.window_seconds }) as Rule,
  repeated_message: (r, s) => ({ ...r, maxCopies: s.max_copies, windowSeconds: s.window_seconds }) as Rule,
  mass_mentions: (r, s) => ({ ...r, maxMentions: s.max_mentions }) as Rule,
  blocked_word: (r, _s, doc) =>
    ({
      ...r,
      words: [...(r as Extract<Rule, { kind: 'words' }>).words, ...doc.blocked_words.map((w) => w.toLowerCase())],
    }) as Rule,
  shouting: (r, s) => ({ ...r, minLetters: s.min_letters, upperRatio: s.upper_ratio }) as Rule,
  phishing: (r) => r,
  phone_number: (r) => r,
  mixed_script: (r) => r,
  text_model: (r) => r,
  shared_spam: (r) => r,
};

/** A document stored before a setting existed reads with that setting's default. */
export function withDefaults(stored: Partial<CommunityRules>): CommunityRules {
  return {
    ...DEFAULT_COMMUNITY_RULES,
    ...stored,
    rules: { ...DEFAULT_COMMUNITY_RULES.rules, ...stored.rules },
    captcha: { ...DEFAULT_COMMUNITY_RULES.captcha, ...stored.captcha },
  };
}

export function ruleSetOf(doc: CommunityRules): RuleSet {
  const rules = DEFAULT_RULES.rules
    .filter((r) => doc.rules[r.id as RuleId]?.enabled !== false)
    .map((r) =>
      (APPLY[r.id as RuleId] as (rule: Rule, s: unknown, d: CommunityRules) => Rule)(r, doc.rules[r.id as RuleId], doc),
    );
  const windows = rules.flatMap((r) => ('windowSeconds' in r ? [r.windowSeconds] : []));
  const switches = Object.entries(doc.rules).flatMap(([id, settings]) => (settings.enabled ? [id] : []));
  return {
    ...DEFAULT_RULES,
    detector: {
      sensitivity: doc.sensitivity,
      enabled: new Set(switches),
      linkAllowlist: doc.link_allowlist,
      officialDomains: doc.official_domains,
      officialHandles: doc.official_handles,
    },
    newMemberDays: doc.new_member_days,
    memoryWindowSeconds: Math.max(DEFAULT_RULES.memoryWindowSeconds, ...windows),
    warnLimit: doc.warn_limit,
    rules,
  };
}
