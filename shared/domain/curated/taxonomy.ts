/**
 * The fixed vocabularies of the curated Web3 dataset. The generator draws from them, the importer
 * validates against them, and request_text parsing maps free words onto them through the synonyms,
 * so "decentralized finance", "DeFi" and "dex" all land on the same sector.
 */

export interface Term {
  id: string;
  label: string;
  /** Lower-case phrases that mean this term in free text (the label and id are implied). */
  synonyms: string[];
}

export const SECTORS = [
  {
    id: 'defi',
    label: 'DeFi',
    synonyms: [
      'decentralized finance',
      'decentralised finance',
      'dex',
      'dexes',
      'lending',
      'yield',
      'perps',
      'derivatives',
      'stablecoin',
      'stablecoins',
      'amm',
      'traders',
      'trading',
      'yield farmers',
      'liquidity providers',
    ],
  },
  {
    id: 'infrastructure',
    label: 'Infrastructure',
    synonyms: [
      'infra',
      'middleware',
      'rpc',
      'oracles',
      'oracle',
      'indexing',
      'developer tooling',
      'dev tools',
      'devtools',
      'tooling',
    ],
  },
  {
    id: 'layer2',
    label: 'Layer 2 and scaling',
    synonyms: ['l2', 'l2s', 'layer 2', 'layer-2', 'rollup', 'rollups', 'scaling', 'modular'],
  },
  {
    id: 'gaming',
    label: 'Gaming',
    synonyms: ['web3 gaming', 'games', 'game', 'gamefi', 'play to earn', 'metaverse', 'gamers', 'gamer', 'esports'],
  },
  {
    id: 'nft',
    label: 'NFTs and digital collectibles',
    synonyms: [
      'nfts',
      'collectibles',
      'digital art',
      'creator economy',
      'ordinals',
      'collectors',
      'nft collectors',
      'artists',
    ],
  },
  {
    id: 'payments',
    label: 'Payments',
    synonyms: ['crypto payments', 'remittances', 'onramp', 'on-ramp', 'payfi', 'merchant payments'],
  },
  {
    id: 'rwa',
    label: 'Real-world assets',
    synonyms: [
      'real world assets',
      'real-world assets',
      'tokenization',
      'tokenisation',
      'tokenized treasuries',
      'rwas',
    ],
  },
  {
    id: 'ai',
    label: 'AI x crypto',
    synonyms: [
      'ai',
      'artificial intelligence',
      'ai agents',
      'agents',
      'decentralized ai',
      'depin ai',
      'machine learning',
    ],
  },
  {
    id: 'identity',
    label: 'Identity and reputation',
    synonyms: ['decentralized identity', 'did', 'reputation', 'attestations', 'soulbound'],
  },
  {
    id: 'security',
    label: 'Security',
    synonyms: ['audits', 'auditing', 'smart contract security', 'wallet security', 'cybersecurity'],
  },
  {
    id: 'data',
    label: 'Data and analytics',
    synonyms: ['analytics', 'on-chain data', 'onchain data', 'data availability', 'blockchain data'],
  },
  { id: 'social', label: 'SocialFi', synonyms: ['socialfi', 'decentralized social', 'desoc', 'social', 'community'] },
  { id: 'dao', label: 'DAO tooling', synonyms: ['daos', 'dao', 'governance', 'dao tooling', 'treasury management'] },
  {
    id: 'privacy',
    label: 'Privacy and ZK',
    synonyms: ['zk', 'zero knowledge', 'zero-knowledge', 'privacy', 'zkp', 'fhe', 'mpc'],
  },
  {
    id: 'depin',
    label: 'DePIN',
    synonyms: ['decentralized physical infrastructure', 'physical infrastructure', 'iot', 'wireless networks'],
  },
] as const satisfies readonly Term[];
export type SectorId = (typeof SECTORS)[number]['id'];

export const STAGES = [
  { id: 'pre-seed', label: 'Pre-seed', synonyms: ['preseed', 'pre seed', 'angel round', 'friends and family'] },
  { id: 'seed', label: 'Seed', synonyms: ['seed round', 'seed-stage', 'seed stage'] },
  { id: 'series-a', label: 'Series A', synonyms: ['series a', 'series-a', 'a round'] },
  {
    id: 'series-b-plus',
    label: 'Series B+',
    synonyms: [
      'series b+',
      'series b',
      'series c',
      'series b plus',
      'growth',
      'growth stage',
      'late stage',
      'series-b',
    ],
  },
] as const satisfies readonly Term[];
export type StageId = (typeof STAGES)[number]['id'];

export const FUND_TYPES = [
  {
    id: 'vc',
    label: 'Venture capital',
    synonyms: ['vc', 'vcs', 'venture firm', 'venture funds', 'venture capital firm'],
  },
  {
    id: 'angel_syndicate',
    label: 'Angel syndicate',
    synonyms: ['angels', 'angel', 'angel syndicates', 'syndicate', 'syndicates', 'angel investors'],
  },
  {
    id: 'corporate',
    label: 'Corporate venture',
    synonyms: [
      'cvc',
      'cvcs',
      'corporate vc',
      'corporate vcs',
      'corporate venture',
      'strategic investors',
      'corporates',
    ],
  },
  {
    id: 'dao',
    label: 'Investment DAO',
    synonyms: ['investment dao', 'investment daos', 'dao fund', 'dao funds', 'daos'],
  },
  {
    id: 'accelerator',
    label: 'Accelerator',
    synonyms: ['accelerators', 'incubator', 'incubators', 'accelerator program'],
  },
] as const satisfies readonly Term[];
export type FundTypeId = (typeof FUND_TYPES)[number]['id'];

export const PLATFORMS = [
  { id: 'x', label: 'X', synonyms: ['twitter', 'x.com', 'on x', 'crypto twitter', 'ct'] },
  { id: 'youtube', label: 'YouTube', synonyms: ['youtube', 'youtuber', 'youtubers'] },
  { id: 'telegram', label: 'Telegram', synonyms: ['telegram', 'telegram channel', 'tg'] },
  { id: 'farcaster', label: 'Farcaster', synonyms: ['farcaster', 'warpcast'] },
] as const satisfies readonly Term[];
export type PlatformId = (typeof PLATFORMS)[number]['id'];

export const ECOSYSTEMS = [
  { id: 'ethereum', label: 'Ethereum', synonyms: ['eth', 'evm'] },
  { id: 'solana', label: 'Solana', synonyms: ['sol'] },
  { id: 'base', label: 'Base', synonyms: [] as string[] },
  { id: 'arbitrum', label: 'Arbitrum', synonyms: ['arb'] },
  { id: 'optimism', label: 'Optimism', synonyms: ['op stack', 'superchain'] },
  { id: 'polygon', label: 'Polygon', synonyms: ['matic'] },
  { id: 'cosmos', label: 'Cosmos', synonyms: ['ibc', 'cosmos sdk'] },
  { id: 'polkadot', label: 'Polkadot', synonyms: ['dot', 'substrate'] },
  { id: 'avalanche', label: 'Avalanche', synonyms: ['avax'] },
  { id: 'near', label: 'NEAR', synonyms: [] as string[] },
  { id: 'sui', label: 'Sui', synonyms: [] as string[] },
  { id: 'aptos', label: 'Aptos', synonyms: [] as string[] },
  { id: 'starknet', label: 'Starknet', synonyms: ['cairo ecosystem'] },
  { id: 'ton', label: 'TON', synonyms: ['the open network'] },
  { id: 'bitcoin', label: 'Bitcoin', synonyms: ['btc', 'bitcoin l2'] },
] as const satisfies readonly Term[];
export type EcosystemId = (typeof ECOSYSTEMS)[number]['id'];

/** Builder types (builder-discovery-v1 `category`). */
export const BUILDER_CATEGORIES = [
  {
    id: 'smart-contract-engineer',
    label: 'Smart contract engineer',
    synonyms: [
      'smart contract developer',
      'smart contract developers',
      'smart contract engineers',
      'solidity developer',
      'solidity developers',
      'solidity engineers',
      'solidity devs',
      'contract engineers',
    ],
  },
  {
    id: 'protocol-engineer',
    label: 'Protocol engineer',
    synonyms: [
      'protocol engineers',
      'protocol developer',
      'core developer',
      'core developers',
      'core devs',
      'client developers',
    ],
  },
  {
    id: 'full-stack-dapp',
    label: 'Full-stack dApp developer',
    synonyms: [
      'dapp developer',
      'dapp developers',
      'full stack',
      'full-stack',
      'web3 developers',
      'frontend',
      'frontend developers',
    ],
  },
  {
    id: 'zk-engineer',
    label: 'ZK engineer',
    synonyms: [
      'zk engineers',
      'zk developer',
      'zk developers',
      'cryptographers',
      'cryptography engineers',
      'circuit engineers',
    ],
  },
  {
    id: 'security-researcher',
    label: 'Security researcher',
    synonyms: ['auditors', 'auditor', 'security researchers', 'whitehats', 'whitehat'],
  },
  {
    id: 'founder',
    label: 'Technical founder',
    synonyms: ['founders', 'technical founders', 'solo founders', 'builders who founded'],
  },
  {
    id: 'devrel',
    label: 'Developer relations',
    synonyms: ['devrel', 'developer advocates', 'developer advocate', 'dev rel'],
  },
  {
    id: 'data-engineer',
    label: 'On-chain data engineer',
    synonyms: ['data engineers', 'data engineer', 'analysts', 'dune wizards', 'indexer developers'],
  },
] as const satisfies readonly Term[];
export type BuilderCategoryId = (typeof BUILDER_CATEGORIES)[number]['id'];

export const SKILLS = [
  'Solidity',
  'Rust',
  'Move',
  'Cairo',
  'Go',
  'TypeScript',
  'Circom',
  'Noir',
  'Vyper',
  'Foundry',
  'Hardhat',
  'Anchor',
  'React',
  'Python',
  'Huff',
  'Halo2',
  'CosmWasm',
  'Substrate',
  'The Graph',
  'Dune SQL',
  'Account abstraction',
  'MEV',
] as const;

/** Role families of people (company-people-discovery-v1 `role_focus`, user-prospect-v1 `role_filter`). */
export const ROLE_FAMILIES = [
  {
    id: 'leadership',
    label: 'Leadership',
    synonyms: ['founder', 'founders', 'co-founder', 'ceo', 'executives', 'c-level', 'leadership', 'decision makers'],
  },
  {
    id: 'engineering',
    label: 'Engineering',
    synonyms: ['engineers', 'engineer', 'developers', 'developer', 'cto', 'tech', 'technical'],
  },
  {
    id: 'product',
    label: 'Product',
    synonyms: ['product managers', 'product manager', 'pm', 'product', 'design', 'designers'],
  },
  { id: 'marketing', label: 'Marketing and growth', synonyms: ['marketing', 'growth', 'marketers', 'cmo', 'brand'] },
  {
    id: 'bd',
    label: 'Business development',
    synonyms: ['bd', 'business development', 'partnerships', 'sales', 'ecosystem'],
  },
  { id: 'community', label: 'Community', synonyms: ['community managers', 'community', 'moderators', 'ambassadors'] },
  {
    id: 'investment',
    label: 'Investment',
    synonyms: ['partners', 'partner', 'investors', 'principals', 'associates', 'gp', 'general partner'],
  },
  {
    id: 'operations',
    label: 'Operations',
    synonyms: ['operations', 'ops', 'finance', 'legal', 'coo', 'cfo', 'people ops'],
  },
] as const satisfies readonly Term[];
export type RoleFamilyId = (typeof ROLE_FAMILIES)[number]['id'];

/** Places people, KOLs and builders live in; free text is matched on the city or the country. */
export const LOCATIONS = [
  { city: 'New York', country: 'United States', region: 'North America' },
  { city: 'San Francisco', country: 'United States', region: 'North America' },
  { city: 'Austin', country: 'United States', region: 'North America' },
  { city: 'Miami', country: 'United States', region: 'North America' },
  { city: 'Toronto', country: 'Canada', region: 'North America' },
  { city: 'London', country: 'United Kingdom', region: 'Europe' },
  { city: 'Berlin', country: 'Germany', region: 'Europe' },
  { city: 'Paris', country: 'France', region: 'Europe' },
  { city: 'Lisbon', country: 'Portugal', region: 'Europe' },
  { city: 'Zug', country: 'Switzerland', region: 'Europe' },
  { city: 'Amsterdam', country: 'Netherlands', region: 'Europe' },
  { city: 'Warsaw', country: 'Poland', region: 'Europe' },
  { city: 'Singapore', country: 'Singapore', region: 'Asia' },
  { city: 'Hong Kong', country: 'Hong Kong', region: 'Asia' },
  { city: 'Seoul', country: 'South Korea', region: 'Asia' },
  { city: 'Tokyo', country: 'Japan', region: 'Asia' },
  { city: 'Bangalore', country: 'India', region: 'Asia' },
  { city: 'Dubai', country: 'United Arab Emirates', region: 'Middle East' },
  { city: 'Lagos', country: 'Nigeria', region: 'Africa' },
  { city: 'Buenos Aires', country: 'Argentina', region: 'Latin America' },
  { city: 'São Paulo', country: 'Brazil', region: 'Latin America' },
  { city: 'Sydney', country: 'Australia', region: 'Oceania' },
] as const;
export type Place = (typeof LOCATIONS)[number];
export const formatPlace = (p: Place): string => (p.city === p.country ? p.city : `${p.city}, ${p.country}`);

/** Where funds are domiciled (vc-shortlist-v1 `jurisdiction`). */
export const JURISDICTIONS = [
  { id: 'united-states', label: 'United States', synonyms: ['us', 'usa', 'u.s.', 'america', 'american'] },
  { id: 'united-kingdom', label: 'United Kingdom', synonyms: ['uk', 'u.k.', 'britain', 'british', 'london'] },
  { id: 'singapore', label: 'Singapore', synonyms: ['sg'] },
  { id: 'switzerland', label: 'Switzerland', synonyms: ['swiss', 'zug', 'crypto valley'] },
  { id: 'united-arab-emirates', label: 'United Arab Emirates', synonyms: ['uae', 'dubai', 'abu dhabi'] },
  { id: 'cayman-islands', label: 'Cayman Islands', synonyms: ['cayman', 'caymans'] },
  { id: 'hong-kong', label: 'Hong Kong', synonyms: ['hk'] },
  { id: 'germany', label: 'Germany', synonyms: ['german', 'berlin'] },
  { id: 'france', label: 'France', synonyms: ['french', 'paris'] },
  { id: 'south-korea', label: 'South Korea', synonyms: ['korea', 'korean', 'seoul'] },
  { id: 'japan', label: 'Japan', synonyms: ['japanese', 'tokyo'] },
  { id: 'canada', label: 'Canada', synonyms: ['canadian', 'toronto'] },
  { id: 'portugal', label: 'Portugal', synonyms: ['portuguese', 'lisbon'] },
  { id: 'british-virgin-islands', label: 'British Virgin Islands', synonyms: ['bvi'] },
] as const satisfies readonly Term[];
export type JurisdictionId = (typeof JURISDICTIONS)[number]['id'];

export const HACKATHONS = [
  'ETHGlobal Bangkok',
  'ETHGlobal Brussels',
  'ETHGlobal San Francisco',
  'ETHGlobal Singapore',
  'ETHDenver BUIDLathon',
  'Solana Radar',
  'Solana Colosseum Breakout',
  'Chainlink Constellation',
  'Encode Club AI Hack',
  'ZK Hack Kraków',
  'Base Onchain Summer Buildathon',
  'Polkadot Sub0 Hackathon',
  'Starknet Winter Hackathon',
  'Cosmoverse HackWasm',
  'TON Open League Hack',
] as const;

/** Label of a term by id, for sentences (falls back to the id for operator-imported values). */
export function termLabel(terms: readonly Term[], id: string): string {
  return terms.find((t) => t.id === id)?.label ?? id;
}

const normalise = (s: string) => s.toLowerCase().replace(/[_]+/g, ' ').replace(/\s+/g, ' ').trim();

/** The term a phrase names exactly (id, label or synonym, case-insensitive), or undefined. */
export function termFor<T extends Term>(terms: readonly T[], phrase: string): T | undefined {
  const p = normalise(phrase);
  return terms.find(
    (t) => normalise(t.id) === p || normalise(t.label) === p || t.synonyms.some((s) => normalise(s) === p),
  );
}

/**
 * Every term mentioned in a text, longest phrases first so "series b+" wins over "series b" and
 * "real world assets" over "assets". Word boundaries keep "ai" out of "chain".
 */
export function termsIn<T extends Term>(
  terms: readonly T[],
  text: string,
  options: { shortInCapitals?: boolean } = {},
): T[] {
  const hay = ` ${normalise(text).replace(/[^a-z0-9+.\- ]+/g, ' ')} `;
  // Short words ("us", "did", "dot", "ai") are everyday words too: in prose they count only in capitals.
  const capitalised = (p: string) =>
    p.length > 3 ||
    !options.shortInCapitals ||
    new RegExp(`\\b${p.toUpperCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text);
  const phrases = terms
    .flatMap((t) =>
      [t.id, t.label, ...t.synonyms].map((p) => ({ t, p: normalise(p).replace(/[^a-z0-9+.\- ]+/g, ' ') })),
    )
    .filter(({ p }) => p.length >= 2)
    .sort((a, b) => b.p.length - a.p.length);
  const found: T[] = [];
  let rest = hay;
  for (const { t, p } of phrases) {
    const pattern = new RegExp(`(?<=[\\s])${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[\\s.,;:!?])`);
    if (pattern.test(rest) && capitalised(p)) {
      if (!found.includes(t)) found.push(t);
      rest = rest.replace(pattern, ' ');
    }
  }
  return found;
}
