/**
 * The seven intelligence packages, as one table. Slot validation, request_text parsing, pricing,
 * the OpenAPI document, quotes and available_expansions all read it; nothing else says what a
 * package takes, returns or costs.
 */
import type { EntityKind } from '#shared/domain/curated/model';

/**
 * What a slot holds. Vocabulary kinds (sector, stage, ...) are matched through the taxonomy's
 * synonyms and stored as the term's id; `threshold` is a number that may arrive as "10k".
 */
export type SlotKind =
  | 'limit'
  | 'money'
  | 'threshold'
  | 'tier'
  | 'text'
  | 'location'
  | 'skills'
  | 'audience'
  | 'sector'
  | 'stage'
  | 'fundType'
  | 'jurisdiction'
  | 'platform'
  | 'ecosystem'
  | 'builderCategory'
  | 'roleFamily';

export interface SlotDef {
  kind: SlotKind;
  required?: boolean;
  /** Taxonomy slots only: a word may name several terms and all of them are kept ("developer"). */
  multiple?: boolean;
  description: string;
  /** Asked when the slot is required and missing (or not understood). */
  question: string;
}

export type Channel = 'email' | 'linkedin' | 'x' | 'telegram' | 'phone' | 'github';
export type ExpansionType = 'contact_unlock' | 'increase_limit' | 'network_depth';

export interface PackageDef {
  id: string;
  name: string;
  description: string;
  /** The kind of curated entity a record stands for (its record_id). */
  entityKind: EntityKind;
  /** What a record is called in sentences: one ("1 person") and many ("12 people"). */
  recordNoun: { one: string; many: string };
  slots: Record<string, SlotDef>;
  limit: { default: number; max: number };
  /** Tier 1 output fields, in output order (names exactly as in output_fields). */
  fields: readonly string[];
  /** Tier 2 channels contact_unlock may reveal. */
  channels: readonly Channel[];
  expansions: readonly ExpansionType[];
  price: { base: number; perRecord: number };
  /** Whose contact details contact_unlock reveals: the record itself, or a person attached to it. */
  contactVia: 'self' | 'partner' | 'primaryContact';
  /**
   * A request that works against the curated dataset: a sentence resolve understands and the slots
   * it fills. The e2e test runs resolve -> quote -> execute from it for every package; the bench and
   * the README use it too.
   */
  example: { request_text: string; slots: Record<string, string | number> };
}

const limitSlot: SlotDef = {
  kind: 'limit',
  required: true,
  description: 'Number of records (integer).',
  question: 'How many results do you want?',
};

export const PACKAGES = {
  'vc-shortlist-v1': {
    id: 'vc-shortlist-v1',
    name: 'Curated VC Shortlist',
    description: 'Funds ranked by the rounds they led and joined in your sector and stage, cheque fit and recency.',
    entityKind: 'fund',
    recordNoun: { one: 'investor', many: 'investors' },
    slots: {
      sector_focus: {
        kind: 'sector',
        required: true,
        description: 'Sector, e.g. DeFi, gaming, infrastructure, RWA, AI.',
        question: 'Which sector should the investors focus on (e.g. DeFi, gaming, infrastructure)?',
      },
      stage: {
        kind: 'stage',
        required: true,
        description: 'Funding stage: pre-seed, seed, Series A or Series B+.',
        question: 'Which funding stage: pre-seed, seed, Series A or Series B+?',
      },
      limit: limitSlot,
      min_investment: {
        kind: 'money',
        description: 'Smallest cheque you need, in USD.',
        question: 'What is the smallest cheque you need?',
      },
      max_investment: {
        kind: 'money',
        description: 'Largest cheque you want, in USD.',
        question: 'What is the largest cheque you want?',
      },
      jurisdiction: {
        kind: 'jurisdiction',
        description: 'Where the fund is domiciled, e.g. United States, Singapore.',
        question: 'Which jurisdiction should the funds be in?',
      },
      fund_type: {
        kind: 'fundType',
        description: 'vc, angel_syndicate, corporate, dao or accelerator.',
        question: 'Which type of investor: VC, angel syndicate, corporate, DAO or accelerator?',
      },
      tier: { kind: 'tier', description: 'Fund tier 1 (top) to 3.', question: 'Which fund tier (1 to 3)?' },
    },
    limit: { default: 10, max: 100 },
    fields: [
      'name',
      'website',
      'focus_area',
      'tier',
      'fund_type',
      'investment_stage',
      'jurisdiction',
      'tagline',
      'description',
      'intelligence_blurb',
      'rationale',
    ],
    channels: ['email', 'linkedin', 'x', 'telegram', 'phone'],
    expansions: ['contact_unlock', 'network_depth', 'increase_limit'],
    price: { base: 100, perRecord: 10 },
    contactVia: 'partner',
    example: { request_text: '10 seed-stage DeFi VCs', slots: { sector_focus: 'defi', stage: 'seed', limit: 10 } },
  },
  'builder-discovery-v1': {
    id: 'builder-discovery-v1',
    name: 'Active Builder Discovery',
    description: 'Builders of one type ranked by recent shipping activity, skills match and hackathon record.',
    entityKind: 'builder',
    recordNoun: { one: 'builder', many: 'builders' },
    slots: {
      category: {
        kind: 'builderCategory',
        required: true,
        multiple: true,
        description:
          'Builder type in everyday words, e.g. smart contract engineer, solidity dev, ZK engineer, designer, or developer (every engineering type); several types may be named.',
        question: 'What type of builder (e.g. smart contract engineer, ZK engineer, protocol engineer)?',
      },
      limit: limitSlot,
      ecosystem: {
        kind: 'ecosystem',
        description: 'Chain ecosystem, e.g. Ethereum, Solana, Base.',
        question: 'Which ecosystem should they build on?',
      },
      location: { kind: 'location', description: 'City, country or region.', question: 'Where should they be based?' },
      skills_focus: {
        kind: 'skills',
        description: 'Comma-separated skills, e.g. Solidity, Rust.',
        question: 'Which skills matter most?',
      },
    },
    limit: { default: 10, max: 100 },
    fields: [
      'name',
      'category',
      'skills',
      'person_role',
      'company_name',
      'location',
      'description',
      'intelligence_blurb',
      'challenge_name',
      'rationale',
    ],
    channels: ['email', 'x', 'linkedin', 'telegram', 'github', 'phone'],
    expansions: ['contact_unlock', 'increase_limit'],
    price: { base: 50, perRecord: 5 },
    contactVia: 'self',
    example: { request_text: '10 smart contract engineers', slots: { category: 'smart-contract-engineer', limit: 10 } },
  },
  'company-people-discovery-v1': {
    id: 'company-people-discovery-v1',
    name: 'Company People Discovery',
    description: 'The people at one company, decision makers and your role focus first.',
    entityKind: 'person',
    recordNoun: { one: 'person', many: 'people' },
    slots: {
      company_name: {
        kind: 'text',
        required: true,
        description: 'Company name (or its domain).',
        question: 'Which company are you looking into?',
      },
      limit: limitSlot,
      role_focus: {
        kind: 'roleFamily',
        multiple: true,
        description:
          'Role families in everyday words (leadership, engineering, product, marketing, bd, community, investment, operations; e.g. developers, designers, marketers).',
        question: 'Which roles matter most?',
      },
      location: { kind: 'location', description: 'City, country or region.', question: 'Where should they be based?' },
    },
    limit: { default: 5, max: 50 },
    fields: [
      'name',
      'company_name',
      'person_role',
      'category',
      'location',
      'description',
      'intelligence_blurb',
      'rationale',
    ],
    channels: ['email', 'x', 'linkedin', 'telegram', 'github', 'phone'],
    expansions: ['contact_unlock', 'increase_limit'],
    price: { base: 50, perRecord: 5 },
    contactVia: 'self',
    example: { request_text: '10 people at Nebula Labs', slots: { company_name: 'Nebula Labs', limit: 10 } },
  },
  'warm-intro-paths-v1': {
    id: 'warm-intro-paths-v1',
    name: 'Target Fund Intro Paths',
    description:
      'Portfolio companies of a target fund, from the funding rounds it took part in: each founder is a route to a warm intro.',
    entityKind: 'company',
    recordNoun: { one: 'intro route', many: 'intro routes' },
    slots: {
      target_fund_name: {
        kind: 'text',
        required: true,
        description: 'Name of the fund you want an intro to.',
        question: 'Which fund do you want an introduction to?',
      },
      limit: limitSlot,
      sector_focus: {
        kind: 'sector',
        description: 'Only portfolio companies in this sector.',
        question: 'Should the routes come from one sector?',
      },
      stage: {
        kind: 'stage',
        description: 'Only rounds at this stage.',
        question: 'Should the routes come from rounds at one stage?',
      },
    },
    limit: { default: 10, max: 100 },
    fields: [
      'name',
      'website',
      'focus_area',
      'investment_stage',
      'tagline',
      'description',
      'intelligence_blurb',
      'rationale',
    ],
    channels: ['email', 'linkedin', 'x', 'telegram', 'phone'],
    expansions: ['contact_unlock'],
    price: { base: 150, perRecord: 15 },
    contactVia: 'primaryContact',
    example: {
      request_text: 'warm intro paths to Polaris Ventures',
      slots: { target_fund_name: 'Polaris Ventures', limit: 10 },
    },
  },
  'kol-discovery-v1': {
    id: 'kol-discovery-v1',
    name: 'KOL Discovery',
    description: 'Key opinion leaders in a sector ranked by GM Score, smart followers and reach.',
    entityKind: 'kol',
    recordNoun: { one: 'KOL', many: 'KOLs' },
    slots: {
      sector_focus: {
        kind: 'sector',
        required: true,
        description: 'Sector the KOL covers, e.g. DeFi, gaming.',
        question: 'Which sector should the KOLs cover?',
      },
      limit: limitSlot,
      min_followers: {
        kind: 'threshold',
        description: 'Minimum followers, e.g. "10000" or "10k".',
        question: 'What minimum follower count?',
      },
      min_gm_score: {
        kind: 'threshold',
        description: 'Minimum GM Score (0-1000).',
        question: 'What minimum GM Score?',
      },
      platform: {
        kind: 'platform',
        description: 'x, youtube, telegram or farcaster.',
        question: 'Which platform: X, YouTube, Telegram or Farcaster?',
      },
      location: { kind: 'location', description: 'City, country or region.', question: 'Where should they be based?' },
    },
    limit: { default: 10, max: 100 },
    fields: [
      'name',
      'category',
      'followers_count',
      'GM Score',
      'Smarts',
      'X_URL',
      'X_BIO_label',
      'X_BIO_reason',
      'description',
      'intelligence_blurb',
      'rationale',
    ],
    channels: ['email', 'linkedin', 'telegram', 'phone'],
    expansions: ['contact_unlock', 'increase_limit'],
    price: { base: 100, perRecord: 10 },
    contactVia: 'self',
    example: { request_text: '10 DeFi KOLs', slots: { sector_focus: 'defi', limit: 10 } },
  },
  'user-prospect-v1': {
    id: 'user-prospect-v1',
    name: 'User/Community Prospect Discovery',
    description: 'People active in the communities of the sectors your audience description names, most engaged first.',
    entityKind: 'person',
    recordNoun: { one: 'prospect', many: 'prospects' },
    slots: {
      sector_interest: {
        kind: 'audience',
        required: true,
        description: 'Audience description naming at least one sector, e.g. "DeFi power users".',
        question: 'Who is your audience (e.g. DeFi power users, web3 gamers)?',
      },
      limit: limitSlot,
      location: { kind: 'location', description: 'City, country or region.', question: 'Where should they be based?' },
      min_engagement: {
        kind: 'threshold',
        description: 'Minimum community engagement, 0 to 1 (or a percentage).',
        question: 'What minimum engagement (0 to 1)?',
      },
      role_filter: {
        kind: 'roleFamily',
        multiple: true,
        description: 'Role families in everyday words, e.g. engineers, marketers, founders.',
        question: 'Which roles?',
      },
    },
    limit: { default: 10, max: 100 },
    fields: [
      'name',
      'category',
      'location',
      'company_name',
      'person_role',
      'description',
      'intelligence_blurb',
      'rationale',
    ],
    channels: ['email', 'x', 'linkedin', 'telegram', 'phone'],
    expansions: ['contact_unlock', 'increase_limit'],
    price: { base: 50, perRecord: 5 },
    contactVia: 'self',
    example: { request_text: '10 DeFi power users', slots: { sector_interest: 'DeFi', limit: 10 } },
  },
  'hackathon-builder-v1': {
    id: 'hackathon-builder-v1',
    name: 'Hackathon Builder Discovery',
    description: 'Hackathon builders in an ecosystem ranked by wins, winnings and hackathons shipped.',
    entityKind: 'builder',
    recordNoun: { one: 'hackathon builder', many: 'hackathon builders' },
    slots: {
      ecosystem: {
        kind: 'ecosystem',
        required: true,
        description: 'Chain ecosystem, e.g. Ethereum, Solana, Base.',
        question: 'Which ecosystem (e.g. Ethereum, Solana, Base)?',
      },
      limit: limitSlot,
      skills: {
        kind: 'skills',
        description: 'Comma-separated skills, e.g. Solidity, Circom.',
        question: 'Which skills?',
      },
      hackathon_name: {
        kind: 'text',
        description: 'A hackathon they took part in, e.g. ETHGlobal Bangkok.',
        question: 'Any particular hackathon?',
      },
      location: { kind: 'location', description: 'City, country or region.', question: 'Where should they be based?' },
    },
    limit: { default: 10, max: 100 },
    fields: [
      'name',
      'category',
      'skills',
      'challenge_name',
      'project_names',
      'total_hackathons_attended',
      'total_hackathons_won',
      'wins',
      'total_winnings',
      'location',
      'description',
      'intelligence_blurb',
      'rationale',
    ],
    channels: ['email', 'x', 'linkedin', 'github', 'telegram'],
    expansions: ['contact_unlock', 'increase_limit'],
    price: { base: 50, perRecord: 5 },
    contactVia: 'self',
    example: { request_text: '10 Ethereum hackathon builders', slots: { ecosystem: 'ethereum', limit: 10 } },
  },
} as const satisfies Record<string, PackageDef>;

export type PackageId = keyof typeof PACKAGES;
export const PACKAGE_IDS = Object.keys(PACKAGES) as [PackageId, ...PackageId[]];

/** Contact unlock ladder: each tier includes the channels of the tiers below it. */
export const CONTACT_TIERS = [
  { id: 'social', credits: 50, channels: ['x', 'linkedin', 'github'] },
  { id: 'email', credits: 100, channels: ['email'] },
  { id: 'telegram', credits: 300, channels: ['telegram'] },
  { id: 'phone', credits: 600, channels: ['phone'] },
] as const satisfies readonly { id: string; credits: number; channels: readonly Channel[] }[];
export type ContactTier = (typeof CONTACT_TIERS)[number]['id'];
export const CONTACT_TIER_IDS = CONTACT_TIERS.map((t) => t.id) as [ContactTier, ...ContactTier[]];

/** Contact fields each channel fills in an unlocked record. */
export const CHANNEL_FIELDS: Record<Channel, readonly string[]> = {
  email: ['email'],
  linkedin: ['LinkedIn_URL'],
  x: ['X_URL'],
  telegram: ['Telegram_URL', 'telegram_handle'],
  phone: ['phone'],
  github: ['GitHub_URL'],
};

export const EXPANSIONS: Record<ExpansionType, { label: string; description: string }> = {
  contact_unlock: {
    label: 'Unlock contacts',
    description:
      'Tier 2 contact details for selected records, priced per contact by tier (social 50, email 100, telegram 300, phone 600) and only for what the contact holds: one with nothing at the tier costs the highest tier below it with a value, or nothing; contacts you already unlocked are not charged again.',
  },
  increase_limit: {
    label: 'More results',
    description:
      'The next records of the same ranking, in blocks of 10, at the per-record price; no record is repeated.',
  },
  network_depth: {
    label: 'Co-investor network',
    description:
      'For each selected fund: co-investors from shared rounds with counts, shared portfolio companies and relationship strength; 20 credits per fund.',
  },
};

export const NETWORK_DEPTH_CREDITS_PER_RECORD = 20;
export const INCREASE_LIMIT_BLOCK = 10;
export const MAX_INCREASE_LIMIT_BLOCKS = 5;
