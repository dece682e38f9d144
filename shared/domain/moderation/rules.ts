/**
 * The moderation rule set, as data: what each rule looks for, how bad a match is and whom it applies
 * to. The classifier walks the rules in order and reports the first match, so the worst rules come
 * first. Tuning the engine means editing this table, not the classifier.
 */

/** minor: the message goes, no offence is recorded. offence / severe: climb the ladder (actions.ts). */
export type RuleWeight = 'minor' | 'offence' | 'severe';

export interface LabelledPattern {
  label: string;
  pattern: RegExp;
}

interface RuleBase {
  id: string;
  weight: RuleWeight;
  /** Only members who joined less than `newMemberDays` ago are held to this rule. */
  newMembersOnly?: boolean;
}

export type Rule = RuleBase &
  (
    | { kind: 'phrases'; phrases: LabelledPattern[] }
    | {
        kind: 'patterns';
        patterns: LabelledPattern[] /** Domains (and subdomains) whose links do not count. */;
        allowlist?: string[];
      }
    | { kind: 'flood'; maxMessages: number; windowSeconds: number }
    | { kind: 'repeat'; maxCopies: number; windowSeconds: number }
    | { kind: 'mentions'; maxMentions: number }
    | { kind: 'shouting'; minLetters: number; upperRatio: number }
    | { kind: 'words'; words: string[] }
  );

/** The detector's part of a community's rules (detector/detector.ts). */
export interface DetectorSettings {
  sensitivity: 'low' | 'medium' | 'high';
  /** The rules-document switches that are on (rule ids); a signal whose switch is off does not fire. */
  enabled: ReadonlySet<string>;
  linkAllowlist: readonly string[];
  /** The community's own sites and accounts: their look-alikes count against a message, they never do. */
  officialDomains: readonly string[];
  officialHandles: readonly string[];
}

export interface RuleSet {
  newMemberDays: number;
  /** Offences older than this no longer count towards the next action. */
  offenceWindowHours: number;
  /** How long a member's recent messages are remembered (the longest flood or repeat window). */
  memoryWindowSeconds: number;
  /**
   * A scam phrase shortly after one of these, in the same clause, is a warning about the scam, not the
   * scam ("never share your seed phrase"); a comma ends the clause, so "Don't wait, DM me" still counts.
   */
  negations: RegExp;
  /** Warnings before an offence escalates to a mute (absent: one, the built-in ladder). */
  warnLimit?: number;
  rules: Rule[];
  detector: DetectorSettings;
}

const p = (label: string, pattern: RegExp): LabelledPattern => ({ label, pattern });

/** Every switch of the rules document that turns detector signals on or off. */
export const DETECTOR_SWITCHES = [
  'scam_phrase',
  'invite_link',
  'wallet_address',
  'link',
  'flood',
  'repeated_message',
  'mass_mentions',
  'blocked_word',
  'shouting',
  'phishing',
  'phone_number',
  'mixed_script',
  'text_model',
  'shared_spam',
] as const;

export const DEFAULT_RULES: RuleSet = {
  detector: {
    sensitivity: 'medium',
    enabled: new Set(DETECTOR_SWITCHES),
    linkAllowlist: [],
    officialDomains: [],
    officialHandles: [],
  },
  newMemberDays: 3,
  offenceWindowHours: 24,
  memoryWindowSeconds: 600,
  negations: /\b(never|don'?t|do not|won'?t|will not|nobody will|no one will|beware of|ignore)\b[^.,;:!?\n]{0,24}$/i,
  rules: [
    {
      id: 'scam_phrase',
      kind: 'phrases',
      weight: 'severe',
      phrases: [
        p(
          'airdrop claim',
          /\b(claim|collect|grab|receive)\b[^.!?\n]{0,30}\bairdrops?\b|\bairdrops?\b[^.!?\n]{0,30}\b(is live|claim now|claim here|claim yours?)\b|\bfree\s+airdrops?\b/i,
        ),
        p(
          'free tokens',
          /\bfree\s+(tokens?|crypto|eth|btc|usdt|nfts?)\b[^.!?\n]{0,40}\b(claim|click|visit|connect)\b/i,
        ),
        p('connect wallet', /\b(connect|link|sync|validate|verify|rectify|restore)\s+(your\s+)?wallets?\b/i),
        p(
          'DM for support',
          /\b(dm|pm|inbox|message)\s+(me|us|admin|the admin|support)\b[^.!?\n]{0,30}\b(support|help|assist|issue|problem)|\bcontact\s+(support|admin)\s+(via|by|in|on)\s+(dm|pm|private)/i,
        ),
        p(
          'seed phrase request',
          /\b(send|share|enter|submit|provide|type|import|verify|give)\b[^.!?\n]{0,20}\b(seed|recovery|secret|mnemonic)\s+(phrase|words?)|\b(send|share|enter|give)\b[^.!?\n]{0,20}\bprivate\s+keys?\b/i,
        ),
        p(
          'guaranteed returns',
          /\b(guaranteed|risk[- ]free)\s+(profit|returns?|income)\b|\b\d{2,4}\s*x\s+(profit|returns?)\s+(guaranteed|in \d+ (hours?|days?))/i,
        ),
      ],
    },
    {
      id: 'invite_link',
      kind: 'patterns',
      weight: 'offence',
      newMembersOnly: true,
      patterns: [
        p('Telegram invite', /\b(t\.me|telegram\.me)\/(joinchat\/|\+)[\w-]+/i),
        p('Discord invite', /\b(discord\.gg|discord(app)?\.com\/invite)\/[\w-]+/i),
        p('WhatsApp invite', /\bchat\.whatsapp\.com\/[\w-]+/i),
      ],
    },
    {
      id: 'wallet_address',
      kind: 'patterns',
      weight: 'offence',
      newMembersOnly: true,
      patterns: [
        p('EVM address', /\b0x[a-fA-F0-9]{40}\b/),
        p('Bitcoin address', /\b(bc1[ac-hj-np-z02-9]{25,59}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})\b/),
        p('TRON address', /\bT[1-9A-HJ-NP-Za-km-z]{33}\b/),
      ],
    },
    {
      id: 'link',
      kind: 'patterns',
      weight: 'offence',
      newMembersOnly: true,
      patterns: [
        p('URL', /\bhttps?:\/\/\S+/i),
        p(
          'bare domain',
          /\b(www\.)?[a-z0-9-]{2,63}\.(com|io|xyz|org|net|app|gg|me|co|finance|fi|site|online|top|club|info|link|live|pro|ly)\b(\/\S*)?/i,
        ),
      ],
    },
    { id: 'flood', kind: 'flood', weight: 'offence', maxMessages: 5, windowSeconds: 10 },
    { id: 'repeated_message', kind: 'repeat', weight: 'offence', maxCopies: 2, windowSeconds: 600 },
    { id: 'mass_mentions', kind: 'mentions', weight: 'offence', maxMentions: 5 },
    {
      id: 'blocked_word',
      kind: 'words',
      weight: 'offence',
      words: ['scamcoin', 'rugpull guaranteed', 'pump group', 'nigerian prince', 'onlyfans'],
    },
    { id: 'shouting', kind: 'shouting', weight: 'minor', minLetters: 12, upperRatio: 0.7 },
  ],
};
