/**
 * Deterministic generator of the curated Web3 graph. One seeded faker instance and a fixed draw
 * order make the same seed give byte-identical data on every machine, so tests and demos can rely
 * on it. `scale` shrinks every count (tests seed a fifth of the data); the fixed rows of fixtures.ts
 * are always present.
 */
import { Faker, base, en } from '@faker-js/faker';
import {
  BUILDER_CATEGORIES,
  ECOSYSTEMS,
  HACKATHONS,
  LOCATIONS,
  PLATFORMS,
  SECTORS,
  STAGES,
  formatPlace,
  termLabel,
  type BuilderCategoryId,
  type EcosystemId,
  type FundTypeId,
  type JurisdictionId,
  type Place,
  type RoleFamilyId,
  type SectorId,
  type StageId,
} from '#shared/domain/curated/taxonomy';
import {
  EMAIL_PATTERNS,
  emailFor,
  type CuratedBuilder,
  type CuratedCompany,
  type CuratedDataset,
  type CuratedFund,
  type CuratedKol,
  type CuratedPerson,
  type CuratedRound,
  type HackathonEntry,
  DATASET_AS_OF,
} from '#shared/domain/curated/model';
import { getOrInsertComputed, mustGet } from '#shared/maps';
import { slugOf } from '#shared/slugs';
import { FIXED_BUILDERS, FIXED_COMPANIES, FIXED_FUNDS, FIXED_IDS, FIXED_KOLS, FIXED_PEOPLE } from './fixtures';

export const DEFAULT_SEED = 20261122;

/** Full-size counts; `scale` multiplies them. */
export const FULL_COUNTS = {
  funds: 2000,
  companies: 4000,
  rounds: 10_000,
  companyPeople: 8000,
  kols: 1500,
  builders: 3000,
};

const FUND_WORDS = [
  'Polar',
  'Arc',
  'Meridian',
  'Fjord',
  'Basalt',
  'Cobalt',
  'Halcyon',
  'Vertex',
  'Summit',
  'Harbor',
  'Onyx',
  'Aurora',
  'Beacon',
  'Cinder',
  'Delphi',
  'Ember',
  'Flux',
  'Granite',
  'Helix',
  'Ion',
  'Juniper',
  'Kestrel',
  'Lumen',
  'Monolith',
  'Nimbus',
  'Obelisk',
  'Prism',
  'Quasar',
  'Rook',
  'Sable',
  'Tidal',
  'Umbra',
  'Vela',
  'Wren',
  'Xenon',
  'Yarrow',
  'Zenith',
  'Atlas',
  'Borealis',
  'Cairn',
  'Drift',
  'Equinox',
  'Foundry',
  'Gale',
  'Hearth',
  'Iris',
  'Keel',
  'Lodestar',
  'Mesa',
  'North',
  'Orbit',
  'Pylon',
  'Ridge',
  'Signal',
  'Tessera',
  'Vanguard',
  'Wildcat',
  'Zephyr',
  'Anchor',
  'Bramble',
  'Citadel',
  'Dune',
  'Echo',
  'Frontier',
  'Glacier',
  'Horizon',
  'Index',
  'Jade',
  'Kite',
  'Loom',
  'Mosaic',
  'Nova',
  'Oak',
];
const FUND_SUFFIX: Record<FundTypeId, string[]> = {
  vc: ['Ventures', 'Capital', 'Partners', 'Digital', 'Crypto', 'Fund', 'Ventures II', 'Labs Ventures'],
  angel_syndicate: ['Angels', 'Syndicate', 'Angel Collective', 'Operators Fund'],
  corporate: ['Ventures', 'Strategic', 'Ecosystem Fund', 'Investments'],
  dao: ['DAO', 'Collective DAO', 'Capital DAO'],
  accelerator: ['Accelerator', 'Launchpad', 'Incubator', 'Residency'],
};
const FUND_TLDS = ['vc', 'capital', 'xyz', 'io', 'com', 'fund', 'ventures'];
const COMPANY_WORDS_BY_SECTOR: Record<SectorId, string[]> = {
  defi: ['Lend', 'Yield', 'Swap', 'Vault', 'Margin', 'Perp', 'Liquid', 'Stable', 'Curve', 'Pool'],
  infrastructure: ['Node', 'Relay', 'Stack', 'Graph', 'Oracle', 'Index', 'Bridge', 'Block'],
  layer2: ['Roll', 'Layer', 'Scale', 'Batch', 'Sequence', 'Proof', 'Hyper', 'Fast'],
  gaming: ['Quest', 'Pixel', 'Guild', 'Arena', 'Realm', 'Loot', 'Play', 'Legend'],
  nft: ['Mint', 'Canvas', 'Gallery', 'Collect', 'Token', 'Artifact', 'Relic'],
  payments: ['Pay', 'Remit', 'Settle', 'Checkout', 'Ramp', 'Wire', 'Coin'],
  rwa: ['Asset', 'Treasury', 'Estate', 'Bond', 'Title', 'Ledger', 'Credit'],
  ai: ['Agent', 'Neural', 'Cortex', 'Infer', 'Model', 'Synapse', 'Mind'],
  identity: ['ID', 'Pass', 'Attest', 'Persona', 'Badge', 'Trust', 'Soul'],
  security: ['Guard', 'Shield', 'Sentinel', 'Audit', 'Fort', 'Watch', 'Safe'],
  data: ['Query', 'Metric', 'Chart', 'Signal', 'Scope', 'Lens', 'Data'],
  social: ['Circle', 'Social', 'Friend', 'Cast', 'Crowd', 'Club', 'Tribe'],
  dao: ['Govern', 'Council', 'Vote', 'Quorum', 'Charter', 'Commons'],
  privacy: ['Zero', 'Shade', 'Cipher', 'Veil', 'Quiet', 'Mask', 'Enclave'],
  depin: ['Grid', 'Mesh', 'Hotspot', 'Sensor', 'Power', 'Wave', 'Spark'],
};
const COMPANY_SUFFIX = [
  'Labs',
  'Protocol',
  'Network',
  'Finance',
  'Systems',
  'Chain',
  'Studio',
  'HQ',
  'Foundation',
  'Technologies',
  'Markets',
  'AI',
];
const COMPANY_PREFIX = [
  'Open',
  'Hyper',
  'Omni',
  'True',
  'Blue',
  'Bright',
  'Deep',
  'Prime',
  'Astra',
  'Terra',
  'Sol',
  'Luna',
  'Nex',
  'Veri',
  'Zero',
  'Flow',
  'Arc',
  'Kinetic',
  'Silver',
  'North',
];
const COMPANY_TLDS = ['io', 'xyz', 'com', 'network', 'finance', 'app', 'fi', 'so', 'tech', 'co'];
const STAGE_AMOUNTS: Record<StageId, [number, number]> = {
  'pre-seed': [250_000, 2_000_000],
  seed: [1_000_000, 7_000_000],
  'series-a': [6_000_000, 30_000_000],
  'series-b-plus': [20_000_000, 150_000_000],
};
const STAGE_ORDER: StageId[] = STAGES.map((s) => s.id);
const JURISDICTION_WEIGHTS: [JurisdictionId, number][] = [
  ['united-states', 30],
  ['united-kingdom', 10],
  ['singapore', 12],
  ['switzerland', 8],
  ['united-arab-emirates', 7],
  ['cayman-islands', 6],
  ['hong-kong', 6],
  ['germany', 4],
  ['france', 3],
  ['south-korea', 5],
  ['japan', 3],
  ['canada', 3],
  ['portugal', 2],
  ['british-virgin-islands', 1],
];
const JURISDICTION_CITY: Record<JurisdictionId, string> = {
  'united-states': 'New York',
  'united-kingdom': 'London',
  singapore: 'Singapore',
  switzerland: 'Zug',
  'united-arab-emirates': 'Dubai',
  'cayman-islands': 'Singapore',
  'hong-kong': 'Hong Kong',
  germany: 'Berlin',
  france: 'Paris',
  'south-korea': 'Seoul',
  japan: 'Tokyo',
  canada: 'Toronto',
  portugal: 'Lisbon',
  'british-virgin-islands': 'Hong Kong',
};
const SECTOR_WEIGHTS: Record<SectorId, number> = {
  defi: 18,
  infrastructure: 14,
  layer2: 8,
  gaming: 8,
  nft: 5,
  payments: 7,
  rwa: 7,
  ai: 9,
  identity: 4,
  security: 4,
  data: 5,
  social: 5,
  dao: 3,
  privacy: 5,
  depin: 5,
};
const ROLES: { family: RoleFamilyId; titles: string[]; weight: number }[] = [
  { family: 'leadership', titles: ['Co-founder & CEO', 'Co-founder', 'COO', 'President'], weight: 10 },
  {
    family: 'engineering',
    titles: [
      'CTO',
      'Senior Solidity Engineer',
      'Protocol Engineer',
      'Rust Engineer',
      'Head of Engineering',
      'Full-stack Engineer',
      'Security Engineer',
    ],
    weight: 30,
  },
  { family: 'product', titles: ['Head of Product', 'Product Manager', 'Product Designer'], weight: 12 },
  { family: 'marketing', titles: ['Head of Growth', 'CMO', 'Marketing Lead', 'Content Lead'], weight: 12 },
  {
    family: 'bd',
    titles: ['Head of BD', 'Business Development Lead', 'Partnerships Manager', 'Ecosystem Lead'],
    weight: 14,
  },
  { family: 'community', titles: ['Community Lead', 'Community Manager', 'Ambassador Program Lead'], weight: 10 },
  { family: 'operations', titles: ['Head of Operations', 'CFO', 'General Counsel', 'Chief of Staff'], weight: 8 },
];
const FUND_ROLES = ['General Partner', 'Partner', 'Principal', 'Investment Associate', 'Head of Platform'];
const KOL_LABELS: Record<SectorId, string[]> = {
  defi: ['DeFi researcher', 'Yield strategist', 'DeFi degen', 'Risk analyst'],
  infrastructure: ['Infra engineer', 'Protocol commentator'],
  layer2: ['Rollup researcher', 'L2 analyst'],
  gaming: ['Web3 gaming streamer', 'GameFi analyst'],
  nft: ['NFT collector', 'Digital art curator'],
  payments: ['Payments operator', 'Stablecoin analyst'],
  rwa: ['Tokenization analyst', 'TradFi-to-crypto commentator'],
  ai: ['AI x crypto researcher', 'Agent builder'],
  identity: ['Identity researcher'],
  security: ['Security researcher', 'Whitehat'],
  data: ['On-chain analyst', 'Dune wizard'],
  social: ['Community builder', 'SocialFi commentator'],
  dao: ['Governance delegate', 'DAO operator'],
  privacy: ['ZK educator', 'Privacy advocate'],
  depin: ['DePIN analyst', 'Hardware hacker'],
};
const CATEGORY_SKILLS: Record<BuilderCategoryId, string[]> = {
  'smart-contract-engineer': ['Solidity', 'Foundry', 'Hardhat', 'Vyper', 'Huff', 'Account abstraction', 'TypeScript'],
  'protocol-engineer': ['Rust', 'Go', 'Substrate', 'CosmWasm', 'MEV', 'Solidity'],
  'full-stack-dapp': ['TypeScript', 'React', 'Solidity', 'The Graph', 'Anchor'],
  'zk-engineer': ['Circom', 'Noir', 'Halo2', 'Rust', 'Cairo'],
  'security-researcher': ['Solidity', 'Foundry', 'Rust', 'Move', 'MEV'],
  founder: ['TypeScript', 'Solidity', 'Rust', 'Python', 'React'],
  devrel: ['TypeScript', 'Solidity', 'React', 'Python'],
  'data-engineer': ['Dune SQL', 'Python', 'The Graph', 'Rust', 'Go'],
};
const ECOSYSTEM_SKILLS: Partial<Record<EcosystemId, string[]>> = {
  solana: ['Rust', 'Anchor'],
  sui: ['Move'],
  aptos: ['Move'],
  starknet: ['Cairo'],
  cosmos: ['CosmWasm', 'Go'],
  polkadot: ['Substrate', 'Rust'],
};
/** What companies in each sector build: descriptions read as a product, not filler. */
const PRODUCTS: Record<SectorId, string[]> = {
  defi: [
    'an intent-based lending market for DAO treasuries',
    'a cross-margin perpetuals exchange',
    'a stablecoin yield aggregator with on-chain risk limits',
    'an options vault protocol for blue-chip assets',
    'a concentrated-liquidity AMM for long-tail assets',
    'a fixed-rate lending protocol',
  ],
  infrastructure: [
    'an RPC and indexing network for multichain dApps',
    'a cross-chain messaging layer',
    'a decentralized oracle for real-time price feeds',
    'a node-as-a-service platform for validators',
    'developer tooling for smart contract testing',
  ],
  layer2: [
    'a ZK rollup for payments',
    'an optimistic rollup for gaming',
    'a shared sequencer for app-chains',
    'a rollup-as-a-service platform',
    'a data-availability layer for rollups',
  ],
  gaming: [
    'an on-chain strategy game with player-owned assets',
    'a game studio shipping web3 mobile titles',
    'a guild and scholarship platform',
    'a marketplace for in-game items',
    'an engine plug-in that brings wallets into games',
  ],
  nft: [
    'a curated marketplace for digital art',
    'NFT infrastructure for brands and loyalty programmes',
    'an ordinals launchpad on Bitcoin',
    'a royalty-enforcing creator platform',
  ],
  payments: [
    'a stablecoin checkout for online merchants',
    'a cross-border payout API on stablecoins',
    'a fiat on-ramp for emerging markets',
    'a crypto card and expense platform for DAOs',
  ],
  rwa: [
    'tokenized treasury bills for on-chain treasuries',
    'a private credit marketplace on-chain',
    'real-estate tokenization with compliant transfers',
    'a platform for tokenized invoices',
  ],
  ai: [
    'an agent framework that transacts on-chain',
    'a decentralized GPU marketplace for inference',
    'verifiable inference with zero-knowledge proofs',
    'an AI copilot for on-chain trading',
  ],
  identity: [
    'a reusable KYC credential for DeFi',
    'an attestation network for on-chain reputation',
    'a passkey wallet with social recovery',
  ],
  security: [
    'continuous smart contract monitoring and alerting',
    'an audit marketplace with bug bounties',
    'a transaction firewall for wallets',
    'formal verification tooling for Solidity',
  ],
  data: [
    'an on-chain analytics warehouse',
    'real-time wallet intelligence for compliance teams',
    'a data-availability sampling network',
    'dashboards and APIs for token analytics',
  ],
  social: [
    'a decentralized social graph',
    'a creator-coin platform',
    'token-gated community tooling',
    'an on-chain group chat',
  ],
  dao: [
    'treasury management for DAOs',
    'governance tooling with delegated voting',
    'payroll and contributor management for DAOs',
    'an on-chain grants platform',
  ],
  privacy: [
    'private payments with selective disclosure',
    'a zero-knowledge coprocessor',
    'an FHE network for confidential smart contracts',
    'an MPC wallet infrastructure',
  ],
  depin: [
    'a decentralized wireless network',
    'a DePIN network for EV charging data',
    'a decentralized mapping network',
    'a compute network of consumer devices',
  ],
};
const TRACTION = [
  'live on mainnet since',
  'in public beta since',
  'processing volume on mainnet since',
  'serving production teams since',
];
const FORMER_EMPLOYERS = [
  'Coinbase',
  'Consensys',
  'Kraken',
  'Chainlink Labs',
  'Google',
  'Goldman Sachs',
  'Stripe',
  'Meta',
  'Binance',
  'Uniswap Labs',
  'Aave',
  'Polygon Labs',
  'Ledger',
  'Jump Crypto',
  'a16z crypto',
  'Revolut',
  'Circle',
];
const PROJECT_WORDS = [
  [
    'Nova',
    'Atlas',
    'Ember',
    'Zen',
    'Flux',
    'Orbit',
    'Pulse',
    'Echo',
    'Prism',
    'Lumen',
    'Drift',
    'Halo',
    'Kite',
    'Sigil',
    'Relay',
  ],
  [
    'Pay',
    'Swap',
    'Guard',
    'Quest',
    'Lens',
    'Agent',
    'Bridge',
    'Vault',
    'Kit',
    'DAO',
    'Market',
    'ID',
    'Proof',
    'Stream',
    'Hub',
  ],
];
const HANDLE_WORDS = [
  ['based', 'onchain', 'degen', 'alpha', 'gm', 'ser', 'anon', 'defi', 'zk', 'yield', 'block', 'mint'],
  ['maxi', 'wizard', 'monk', 'ape', 'frog', 'owl', 'whale', 'fox', 'hacker', 'scribe', 'sage', 'pilot'],
];
const CHALLENGES = [
  'DeFi track',
  'Best use of account abstraction',
  'Consumer apps',
  'Zero-knowledge track',
  'Public goods',
  'Infrastructure track',
  'Best AI agent',
  'Gaming track',
  'Payments track',
  'Security track',
];

type Weighted<T> = { value: T; weight: number }[];

/** "an options vault protocol" → "Options vault protocol." */
const taglineOf = (product: string) => {
  const text = product.replace(/^(an?|the) /i, '');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
};
/** 250_000 → "$250k", 1_500_000 → "$1.5M". */
const money = (usd: number) => (usd >= 1e6 ? `$${Math.round(usd / 1e5) / 10}M` : `$${Math.round(usd / 1e3)}k`);

export interface GenerateOptions {
  seed?: number;
  /** 1 = full size; tests use 0.2. */
  scale?: number;
}

export function generateDataset(options: GenerateOptions = {}): CuratedDataset {
  const f = new Faker({ locale: [en, base] });
  f.seed(options.seed ?? DEFAULT_SEED);
  const scale = options.scale ?? 1;
  const count = (n: number) => Math.max(1, Math.round(n * scale));
  const pick = <T>(items: readonly T[]): T => f.helpers.arrayElement(items as T[]);
  const weighted = <T>(items: Weighted<T>): T => f.helpers.weightedArrayElement(items);
  const some = <T>(items: readonly T[], min: number, max: number): T[] =>
    f.helpers.arrayElements(items as T[], { min, max });
  const chance = (p: number) => f.number.float({ min: 0, max: 1 }) < p;
  const between = (min: number, max: number) => f.number.int({ min, max });
  const roundTo = (n: number, step: number) => Math.max(step, Math.round(n / step) * step);
  const sectorWeights: Weighted<SectorId> = SECTORS.map((s) => ({ value: s.id, weight: SECTOR_WEIGHTS[s.id] }));
  const sectorsLike = (min: number, max: number): SectorId[] => {
    const n = between(min, max);
    const out = new Set<SectorId>();
    while (out.size < n) out.add(weighted(sectorWeights));
    return [...out];
  };
  const place = (): Place => pick(LOCATIONS);
  const placeIn = (city: string): Place => LOCATIONS.find((l) => l.city === city) ?? LOCATIONS[0];
  const usedDomains = new Set<string>([...FIXED_FUNDS, ...FIXED_COMPANIES].map((e) => e.domain));
  const usedNames = new Set<string>([...FIXED_FUNDS, ...FIXED_COMPANIES].map((e) => e.name.toLowerCase()));
  const uniqueName = (make: () => string): string => {
    for (let i = 0; ; i++) {
      const name = i < 20 ? make() : `${make()} ${i}`;
      if (!usedNames.has(name.toLowerCase())) {
        usedNames.add(name.toLowerCase());
        return name;
      }
    }
  };
  const uniqueDomain = (stem: string, tlds: string[]): string => {
    for (let i = 0; ; i++) {
      const domain = `${stem}${i > 3 ? i : ''}.${i === 0 ? tlds[0] : pick(tlds)}`;
      if (!usedDomains.has(domain)) {
        usedDomains.add(domain);
        return domain;
      }
    }
  };
  const pad = (n: number) => String(n).padStart(5, '0');
  const asOf = new Date(`${DATASET_AS_OF}T00:00:00Z`).getTime();
  const isoDay = (ms: number) => new Date(Math.min(ms, asOf)).toISOString().slice(0, 10);

  // ---- Funds --------------------------------------------------------------------------------
  const funds: CuratedFund[] = FIXED_FUNDS.map((fund) => ({ ...fund, rounds: [] }));
  const fundTypeWeights: Weighted<FundTypeId> = [
    { value: 'vc', weight: 60 },
    { value: 'angel_syndicate', weight: 12 },
    { value: 'corporate', weight: 12 },
    { value: 'dao', weight: 8 },
    { value: 'accelerator', weight: 8 },
  ];
  for (let i = funds.length; i < count(FULL_COUNTS.funds); i++) {
    const fundType = weighted(fundTypeWeights);
    const tier = weighted<1 | 2 | 3>([
      { value: 1, weight: 15 },
      { value: 2, weight: 35 },
      { value: 3, weight: 50 },
    ]);
    const name = uniqueName(() =>
      fundType === 'corporate'
        ? `${pick(FUND_WORDS)} ${pick(['Exchange', 'Bank', 'Telecom', 'Games', 'Payments', 'Cloud', 'Semiconductor', 'Media'])} ${pick(FUND_SUFFIX.corporate)}`
        : `${pick(FUND_WORDS)}${chance(0.3) ? pick(['', ' Point', ' Peak', ' Bay', ' Line', ' Field']) : ''} ${pick(FUND_SUFFIX[fundType])}`,
    );
    const domain = uniqueDomain(
      slugOf(name)
        .replace(/-(ventures|capital|partners|fund|dao|ii)$/g, '')
        .replace(/-/g, ''),
      FUND_TLDS,
    );
    const jurisdiction = weighted(JURISDICTION_WEIGHTS.map(([value, weight]) => ({ value, weight })));
    const firstStage =
      fundType === 'accelerator' || fundType === 'angel_syndicate' ? 0 : tier === 1 ? between(1, 2) : between(0, 2);
    const stageSpan = fundType === 'accelerator' ? 1 : fundType === 'angel_syndicate' ? 2 : between(1, 3);
    const stages = STAGE_ORDER.slice(firstStage, Math.min(STAGE_ORDER.length, firstStage + stageSpan));
    const [low] = STAGE_AMOUNTS[stages[0]];
    const [, high] = STAGE_AMOUNTS[stages[stages.length - 1]];
    const chequeBase =
      fundType === 'angel_syndicate'
        ? 0.1
        : fundType === 'accelerator'
          ? 0.08
          : tier === 1
            ? 0.35
            : tier === 2
              ? 0.2
              : 0.12;
    const minChequeUsd = roundTo(low * chequeBase * f.number.float({ min: 0.6, max: 1.4 }), 25_000);
    const maxChequeUsd = Math.max(
      minChequeUsd * 2,
      roundTo(high * chequeBase * f.number.float({ min: 0.5, max: 1.2 }), 50_000),
    );
    const sectors = sectorsLike(fundType === 'accelerator' ? 2 : 1, 4);
    const typeLabel = (
      {
        vc: 'VC firm',
        angel_syndicate: 'angel syndicate',
        corporate: 'corporate venture arm',
        dao: 'investment DAO',
        accelerator: 'accelerator',
      } as const
    )[fundType];
    const sectorText = sectors
      .map((s) => termLabel(SECTORS, s))
      .join(', ')
      .replace(/, ([^,]*)$/, ' and $1');
    const stageText =
      stages.length > 1
        ? `${termLabel(STAGES, stages[0])} to ${termLabel(STAGES, stages[stages.length - 1])}`
        : termLabel(STAGES, stages[0]);
    funds.push({
      kind: 'fund',
      id: `fund-${pad(i)}`,
      name,
      domain,
      website: `https://${domain}`,
      fundType,
      tier,
      jurisdiction,
      location: formatPlace(placeIn(JURISDICTION_CITY[jurisdiction])),
      sectors,
      stages,
      minChequeUsd,
      maxChequeUsd,
      foundedYear: between(2012, 2024),
      tagline: pick([
        `${termLabel(SECTORS, sectors[0])}-native ${typeLabel} backing founders early.`,
        `Backing ${sectorText} teams from ${stageText}.`,
        `${stageText} capital for ${termLabel(SECTORS, sectors[0])} builders.`,
        `Operator-led ${typeLabel} for ${termLabel(SECTORS, sectors[0])}.`,
      ]),
      description: `${name} is a tier ${tier} ${typeLabel} investing in ${sectorText} ${stages.length > 1 ? 'from' : 'at'} ${stageText}, with cheques typically between ${money(minChequeUsd)} and ${money(maxChequeUsd)}.${chance(0.5) ? ` ${pick(['Known for hands-on token design support.', 'Often leads and takes a board seat.', 'Prefers to co-invest alongside specialist leads.', 'Runs a platform team for hiring and go-to-market.', 'Has a dedicated liquidity and market-structure practice.'])}` : ''}`,
      partnerId: null,
      rounds: [],
    });
  }
  // Funds that like to invest together: each fund gets a few regular co-investors.
  const friends = new Map<string, string[]>(funds.map((fund) => [fund.id, [] as string[]]));
  for (const fund of funds)
    for (const other of some(funds, 2, 5))
      if (other.id !== fund.id) mustGet(friends, fund.id, 'co-investors').push(other.id);
  mustGet(friends, FIXED_IDS.polaris, 'co-investors').push(FIXED_IDS.lattice, FIXED_IDS.lattice, FIXED_IDS.lattice);
  const byId = new Map(funds.map((fund) => [fund.id, fund]));
  const fundsFor = new Map<string, CuratedFund[]>();
  for (const fund of funds)
    for (const s of fund.sectors)
      for (const st of fund.stages) {
        const key = `${s}|${st}`;
        getOrInsertComputed(fundsFor, key, () => []).push(fund);
      }
  const leadWeight = (fund: CuratedFund) =>
    (fund.fundType === 'angel_syndicate' || fund.fundType === 'dao' ? 1 : 4 - fund.tier) *
    (fund.id === FIXED_IDS.polaris ? 12 : 1);

  // ---- Companies and their rounds ----------------------------------------------------------
  const companies: CuratedCompany[] = FIXED_COMPANIES.map((c) => ({ ...c, rounds: [] }));
  for (let i = companies.length; i < count(FULL_COUNTS.companies); i++) {
    const sectors = sectorsLike(1, 2);
    const stem = pick(COMPANY_WORDS_BY_SECTOR[sectors[0]]);
    const name = uniqueName(() =>
      weighted([
        {
          value: () =>
            `${stem}${pick(['ly', 'io', 'ra', 'fi', 'wise', 'ify', 'hub', 'base', 'ora', 'net', 'verse', 'kit'])}`,
          weight: 3,
        },
        { value: () => `${pick(COMPANY_PREFIX)}${stem}`, weight: 3 },
        { value: () => `${stem}${pick(['', 'ora', 'net', 'verse'])} ${pick(COMPANY_SUFFIX)}`, weight: 2 },
        { value: () => `${pick(COMPANY_PREFIX)}${stem.toLowerCase()} ${pick(COMPANY_SUFFIX)}`, weight: 2 },
      ])(),
    );
    const domain = uniqueDomain(
      slugOf(name)
        .replace(/-(labs|protocol|network|finance|hq|technologies)$/g, '')
        .replace(/-/g, ''),
      COMPANY_TLDS,
    );
    const where = place();
    const employeeCount = chance(0.22) ? null : Math.max(2, Math.round(Math.exp(f.number.float({ min: 1, max: 6 }))));
    const ecosystems = some(
      ECOSYSTEMS.map((e) => e.id),
      1,
      3,
    );
    const product = pick(PRODUCTS[sectors[0]]);
    const foundedYear = between(2016, 2025);
    companies.push({
      kind: 'company',
      id: `co-${pad(i)}`,
      name,
      domain,
      website: `https://${domain}`,
      employeeCount,
      sectors,
      ecosystems,
      location: formatPlace(where),
      foundedYear,
      tagline: taglineOf(product),
      description: `${name} builds ${product} on ${ecosystems.map((e) => termLabel(ECOSYSTEMS, e)).join(', ')}, ${pick(TRACTION)} ${between(Math.max(2019, foundedYear + 1), 2026)}.`,
      emailPattern: pick(EMAIL_PATTERNS),
      primaryContactId: null,
      rounds: [],
    });
  }
  const rounds: CuratedRound[] = [];
  const roundsWanted = count(FULL_COUNTS.rounds);
  const companyRoundCounts = companies.map(() => 1);
  for (let extra = companies.length; extra < roundsWanted; extra++)
    companyRoundCounts[between(0, companies.length - 1)] += 1;
  companyRoundCounts[0] = Math.max(companyRoundCounts[0], 2);
  companies.forEach((company, ci) => {
    const n = Math.min(companyRoundCounts[ci], 6);
    let day =
      new Date(`${Math.max(company.foundedYear, 2018)}-01-01T00:00:00Z`).getTime() + between(30, 300) * 86_400_000;
    let stageIndex = company.id === FIXED_IDS.nebula ? 1 : 0;
    for (let r = 0; r < n && day <= asOf; r++) {
      const stage = STAGE_ORDER[Math.min(stageIndex, STAGE_ORDER.length - 1)];
      const sector = company.sectors[0];
      const pool = fundsFor.get(`${sector}|${stage}`) ?? funds;
      const lead =
        company.id === FIXED_IDS.nebula && r === 0
          ? mustGet(byId, FIXED_IDS.polaris, 'fund')
          : f.helpers.weightedArrayElement(pool.map((value) => ({ value, weight: leadWeight(value) })));
      const investors = [lead];
      const coCount = stage === 'pre-seed' ? between(0, 2) : between(1, 4);
      for (let k = 0; k < coCount; k++) {
        const friendIds = mustGet(friends, lead.id, 'co-investors');
        const candidate = chance(0.55) && friendIds.length ? mustGet(byId, pick(friendIds), 'fund') : pick(pool);
        if (!investors.includes(candidate)) investors.push(candidate);
      }
      if (company.id === FIXED_IDS.nebula && r === 0 && !investors.some((x) => x.id === FIXED_IDS.lattice))
        investors.push(mustGet(byId, FIXED_IDS.lattice, 'fund'));
      const [lo, hi] = STAGE_AMOUNTS[stage];
      const round: CuratedRound = {
        id: `rnd-${pad(rounds.length + 1)}`,
        companyId: company.id,
        companyName: company.name,
        sector,
        stage,
        amountUsd: roundTo(f.number.float({ min: lo, max: hi }), 50_000),
        announcedOn: isoDay(day),
        leadFundId: lead.id,
        leadFundName: lead.name,
        investors: investors.map((x) => ({ id: x.id, name: x.name })),
      };
      rounds.push(round);
      company.rounds.unshift(round);
      for (const inv of investors) inv.rounds.unshift(round);
      day += between(200, 620) * 86_400_000;
      stageIndex += chance(0.8) ? 1 : 0;
    }
  });
  // Top up to the wanted round count with extensions of existing stages (bridge and strategic rounds).
  while (rounds.length < roundsWanted) {
    const company = pick(companies);
    const last = company.rounds[0];
    const sector = company.sectors[chance(0.7) ? 0 : company.sectors.length - 1];
    const stage = last ? last.stage : 'pre-seed';
    const pool = fundsFor.get(`${sector}|${stage}`) ?? funds;
    const lead = f.helpers.weightedArrayElement(pool.map((value) => ({ value, weight: leadWeight(value) })));
    const investors = [
      lead,
      ...some(
        mustGet(friends, lead.id, 'co-investors').map((id) => mustGet(byId, id, 'fund')),
        0,
        2,
      ).filter((x) => x.id !== lead.id),
    ];
    const [lo, hi] = STAGE_AMOUNTS[stage];
    const round: CuratedRound = {
      id: `rnd-${pad(rounds.length + 1)}`,
      companyId: company.id,
      companyName: company.name,
      sector,
      stage,
      amountUsd: roundTo(f.number.float({ min: lo, max: hi }) * 0.5, 50_000),
      announcedOn: isoDay(asOf - between(10, 1400) * 86_400_000),
      leadFundId: lead.id,
      leadFundName: lead.name,
      investors: [...new Map(investors.map((x) => [x.id, x])).values()].map((x) => ({ id: x.id, name: x.name })),
    };
    rounds.push(round);
    company.rounds.push(round);
    for (const inv of round.investors) mustGet(byId, inv.id, 'fund').rounds.push(round);
  }
  const newestFirst = (a: CuratedRound, b: CuratedRound) =>
    b.announcedOn.localeCompare(a.announcedOn) || b.id.localeCompare(a.id);
  for (const c of companies) c.rounds.sort(newestFirst);
  for (const fund of funds) fund.rounds.sort(newestFirst);

  // ---- People -----------------------------------------------------------------------------
  const people: CuratedPerson[] = [...FIXED_PEOPLE];
  const fixedOrgs = new Set(FIXED_PEOPLE.map((p) => p.companyId));
  const usedHandles = new Set<string>();
  const handleFor = (first: string, last: string) => {
    const baseHandle = `${slugOf(first)}${pick(['', '_', '.'])}${slugOf(last)}`
      .replace(/[^a-z0-9_.]/g, '')
      .slice(0, 20);
    let h = baseHandle;
    for (let k = 2; usedHandles.has(h); k++) h = `${baseHandle}${k}`;
    usedHandles.add(h);
    return h;
  };
  const phoneFor = (location: string) => {
    const prefix =
      location.includes('United States') || location.includes('Canada')
        ? '+1'
        : location.includes('United Kingdom')
          ? '+44'
          : location.includes('Germany')
            ? '+49'
            : location.includes('Singapore')
              ? '+65'
              : location.includes('France')
                ? '+33'
                : location.includes('Portugal')
                  ? '+351'
                  : location.includes('Switzerland')
                    ? '+41'
                    : location.includes('Japan')
                      ? '+81'
                      : location.includes('South Korea')
                        ? '+82'
                        : location.includes('United Arab Emirates')
                          ? '+971'
                          : '+44';
    return prefix === '+1'
      ? `+1 ${between(201, 989)} 555 ${between(1000, 9999)}`
      : `${prefix} ${between(20, 99)} ${between(100, 999)} ${between(1000, 9999)}`;
  };
  const makePerson = (
    org: CuratedCompany | CuratedFund,
    id: string,
    role: string,
    roleFamily: RoleFamilyId,
  ): CuratedPerson => {
    const sex = pick(['female', 'male'] as const);
    const firstName = f.person.firstName(sex);
    const lastName = f.person.lastName();
    const handle = handleFor(firstName, lastName);
    const location = chance(0.75) ? org.location : formatPlace(place());
    const technical = roleFamily === 'engineering';
    const pattern = org.kind === 'company' ? org.emailPattern : 'first';
    return {
      kind: 'person',
      id,
      fullName: `${firstName} ${lastName}`,
      firstName,
      lastName,
      role,
      roleFamily,
      organizationKind: org.kind === 'fund' ? 'fund' : 'company',
      companyId: org.id,
      companyName: org.name,
      companyDomain: org.domain,
      location,
      bio: `${role} at ${org.name}${chance(0.55) ? `; previously ${pick(['at', 'at', 'led a team at', 'built products at'])} ${pick(FORMER_EMPLOYERS)}` : ''}.`,
      interests: [...new Set([...org.sectors.slice(0, 2), ...(chance(0.4) ? [weighted(sectorWeights)] : [])])],
      engagementScore: Math.round(Math.min(1, Math.max(0.02, f.number.float({ min: 0, max: 1 }) ** 1.4)) * 100) / 100,
      sinceYear: between(Math.max(2016, org.foundedYear), 2026),
      email: chance(org.kind === 'fund' ? 0.85 : 0.7) ? emailFor(pattern, firstName, lastName, org.domain) : null,
      linkedinUrl: chance(0.78)
        ? `https://www.linkedin.com/in/${slugOf(firstName)}-${slugOf(lastName)}-${f.string.alphanumeric({ length: 6, casing: 'lower' })}`
        : null,
      xUrl: chance(roleFamily === 'marketing' || roleFamily === 'community' || roleFamily === 'leadership' ? 0.8 : 0.5)
        ? `https://x.com/${handle.replace(/\./g, '_')}`
        : null,
      telegramHandle: chance(0.38) ? `@${handle.replace(/\./g, '_')}` : null,
      phone: chance(roleFamily === 'leadership' || roleFamily === 'bd' || roleFamily === 'investment' ? 0.22 : 0.08)
        ? phoneFor(location)
        : null,
      githubUrl: chance(technical ? 0.75 : 0.1) ? `https://github.com/${handle.replace(/[._]/g, '-')}` : null,
    };
  };
  let personSeq = 1;
  for (const fund of funds) {
    if (fixedOrgs.has(fund.id)) continue;
    const partner = makePerson(
      fund,
      `per-${pad(personSeq++)}`,
      fund.fundType === 'angel_syndicate'
        ? 'Syndicate Lead'
        : fund.fundType === 'accelerator'
          ? 'Program Director'
          : pick(FUND_ROLES.slice(0, 2)),
      'investment',
    );
    fund.partnerId = partner.id;
    people.push(partner);
  }
  const companyPeopleWanted = count(FULL_COUNTS.companyPeople);
  const extraSlots: number[] = [];
  const weightsByCompany = companies.map((c) => (fixedOrgs.has(c.id) ? 0 : Math.sqrt(c.employeeCount ?? 20)));
  const totalWeight = weightsByCompany.reduce((a, b) => a + b, 0);
  const openCompanies = companies.filter((c) => !fixedOrgs.has(c.id));
  for (let k = openCompanies.length; k < companyPeopleWanted; k++) {
    let x = f.number.float({ min: 0, max: totalWeight });
    let ci = 0;
    while (ci < companies.length - 1 && x > weightsByCompany[ci]) x -= weightsByCompany[ci++];
    extraSlots.push(fixedOrgs.has(companies[ci].id) ? companies.indexOf(openCompanies[0]) : ci);
  }
  const extrasPer = new Map<number, number>();
  for (const ci of extraSlots) extrasPer.set(ci, (extrasPer.get(ci) ?? 0) + 1);
  const roleWeights: Weighted<(typeof ROLES)[number]> = ROLES.filter((r) => r.family !== 'leadership').map((value) => ({
    value,
    weight: value.weight,
  }));
  companies.forEach((company, ci) => {
    if (fixedOrgs.has(company.id)) return;
    const founder = makePerson(
      company,
      `per-${pad(personSeq++)}`,
      pick(['Co-founder & CEO', 'Founder & CEO', 'Co-founder']),
      'leadership',
    );
    company.primaryContactId = founder.id;
    people.push(founder);
    const usedTitles = new Set<string>();
    for (let k = 0; k < (extrasPer.get(ci) ?? 0); k++) {
      const role = weighted(roleWeights);
      let title = pick(role.titles);
      if (usedTitles.has(title) && /^(CTO|CMO|CFO|COO|Head of)/.test(title))
        title = role.titles[role.titles.length - 1];
      usedTitles.add(title);
      people.push(makePerson(company, `per-${pad(personSeq++)}`, title, role.family));
    }
  });

  // ---- KOLs -------------------------------------------------------------------------------
  const kols: CuratedKol[] = [...FIXED_KOLS];
  for (let i = kols.length; i < count(FULL_COUNTS.kols); i++) {
    const sectors = sectorsLike(1, 3);
    const pseudonymous = chance(0.35);
    const first = f.person.firstName();
    const last = f.person.lastName();
    const name = pseudonymous
      ? `${pick(['0x', '', ''])}${pick(HANDLE_WORDS[0])}${pick(['', '_', ''])}${pick(HANDLE_WORDS[1])}${chance(0.3) ? between(2, 99) : ''}`
      : `${first} ${last}`;
    const handle = handleFor(pseudonymous ? name : first, pseudonymous ? '' : last).replace(/\./g, '_');
    const platform = weighted<(typeof PLATFORMS)[number]['id']>([
      { value: 'x', weight: 70 },
      { value: 'youtube', weight: 12 },
      { value: 'telegram', weight: 10 },
      { value: 'farcaster', weight: 8 },
    ]);
    const followers = roundTo(Math.exp(f.number.float({ min: Math.log(1500), max: Math.log(900_000) })), 100);
    const quality = f.number.float({ min: 0, max: 1 });
    const smarts = Math.round(quality ** 2 * Math.min(1200, followers / 40) + between(0, 15));
    const gmScore = Math.min(999, Math.round(200 + quality * 600 + Math.log10(followers) * 30 + between(-40, 40)));
    const label = pick(KOL_LABELS[sectors[0]]);
    const where = formatPlace(place());
    kols.push({
      kind: 'kol',
      id: `kol-${pad(i)}`,
      name,
      handle,
      platform,
      followers,
      gmScore,
      smarts,
      xBioLabel: label,
      xBioReason: pick([
        `Bio and pinned thread focus on ${termLabel(SECTORS, sectors[0])}; ${Math.round(40 + quality * 55)}% of recent posts are ${termLabel(SECTORS, sectors[0])} analysis.`,
        `Self-describes as "${label.toLowerCase()}"; followed by ${smarts} smart accounts in ${termLabel(SECTORS, sectors[0])}.`,
        `Regularly quoted by ${termLabel(SECTORS, sectors[0])} founders; bio links a ${pick(['newsletter', 'podcast', 'research blog', 'Dune dashboard'])}.`,
      ]),
      sectors,
      location: where,
      description: `${label} covering ${sectors.map((s) => termLabel(SECTORS, s)).join(', ')}${platform === 'x' ? '' : ` on ${termLabel(PLATFORMS, platform)}`}; ${pick(['known for long-form threads', 'runs a weekly newsletter', 'hosts a podcast with founders', 'posts daily market notes', 'shares on-chain dashboards'])}.`,
      email: chance(0.4)
        ? `${handle.replace(/_/g, '')}@${pick(['gmail.com', 'proton.me', `${handle.replace(/_/g, '')}.xyz`])}`
        : null,
      linkedinUrl:
        !pseudonymous && chance(0.4)
          ? `https://www.linkedin.com/in/${slugOf(first)}-${slugOf(last)}-${f.string.alphanumeric({ length: 5, casing: 'lower' })}`
          : null,
      xUrl: platform === 'x' || chance(0.6) ? `https://x.com/${handle}` : null,
      telegramHandle: platform === 'telegram' || chance(0.4) ? `@${handle}` : null,
      phone: chance(0.05) ? phoneFor(where) : null,
      githubUrl: null,
    });
  }

  // ---- Hackathon builders -----------------------------------------------------------------
  const builders: CuratedBuilder[] = [...FIXED_BUILDERS];
  const categoryWeights: Weighted<BuilderCategoryId> = [
    { value: 'smart-contract-engineer', weight: 28 },
    { value: 'full-stack-dapp', weight: 22 },
    { value: 'protocol-engineer', weight: 12 },
    { value: 'zk-engineer', weight: 8 },
    { value: 'security-researcher', weight: 8 },
    { value: 'founder', weight: 10 },
    { value: 'devrel', weight: 6 },
    { value: 'data-engineer', weight: 6 },
  ];
  const projectName = () => `${pick(PROJECT_WORDS[0])}${pick(['', ' ', ''])}${pick(PROJECT_WORDS[1])}`;
  for (let i = builders.length; i < count(FULL_COUNTS.builders); i++) {
    const category = weighted(categoryWeights);
    const ecosystems = some(
      ECOSYSTEMS.map((e) => e.id),
      1,
      3,
    ) as EcosystemId[];
    const skills = [
      ...new Set([
        ...some(CATEGORY_SKILLS[category], 2, 4),
        ...ecosystems.flatMap((e) => {
          const ecosystemSkills = ECOSYSTEM_SKILLS[e];
          return ecosystemSkills && chance(0.7) ? [pick(ecosystemSkills)] : [];
        }),
      ]),
    ];
    const first = f.person.firstName();
    const last = f.person.lastName();
    const handle = handleFor(first, last).replace(/\./g, '');
    const attended = Math.min(HACKATHONS.length, Math.floor(f.number.float({ min: 0, max: 1 }) ** 1.6 * 11) + 1);
    const skill = f.number.float({ min: 0, max: 1 });
    const hackathons: HackathonEntry[] = some(HACKATHONS, attended, attended)
      .map((hackathon) => {
        const won = chance(0.08 + skill * 0.35);
        return {
          hackathon,
          year: between(2022, 2026),
          project: projectName(),
          challenge: pick(CHALLENGES),
          won,
          prizeUsd: won ? roundTo(f.number.float({ min: 1000, max: 30_000 }), 500) : 0,
        };
      })
      .sort((a, b) => b.year - a.year);
    const atCompany = chance(0.55) ? pick(companies) : null;
    const where = atCompany && chance(0.7) ? atCompany.location : formatPlace(place());
    const wins = hackathons.filter((h) => h.won);
    const label = termLabel(BUILDER_CATEGORIES, category);
    builders.push({
      kind: 'builder',
      id: `bld-${pad(i)}`,
      name: `${first} ${last}`,
      handle,
      category,
      skills,
      role: atCompany ? (category === 'founder' ? 'Founder' : label) : `Independent ${label.toLowerCase()}`,
      companyId: atCompany?.id ?? null,
      companyName: atCompany?.name ?? null,
      location: where,
      ecosystems,
      hackathons,
      totalHackathonsAttended: hackathons.length,
      totalHackathonsWon: wins.length,
      totalWinningsUsd: wins.reduce((s, h) => s + h.prizeUsd, 0),
      commitsLast90d: Math.round(skill * 500 * f.number.float({ min: 0.2, max: 1 })),
      lastActiveOn: isoDay(asOf - Math.round((1 - skill) * between(0, 240)) * 86_400_000),
      description: `${label} building on ${ecosystems.map((e) => termLabel(ECOSYSTEMS, e)).join(', ')} with ${skills.slice(0, 3).join(', ')}${wins.length ? `; won ${wins[0].hackathon} ${wins[0].year} with ${wins[0].project}` : `; shipped ${hackathons[0].project} at ${hackathons[0].hackathon}`}.`,
      email: chance(0.45) ? `${handle}@${pick(['gmail.com', 'proton.me', `${handle}.dev`])}` : null,
      linkedinUrl: chance(0.5)
        ? `https://www.linkedin.com/in/${slugOf(first)}-${slugOf(last)}-${f.string.alphanumeric({ length: 5, casing: 'lower' })}`
        : null,
      xUrl: chance(0.6) ? `https://x.com/${handle}` : null,
      telegramHandle: chance(0.4) ? `@${handle}` : null,
      phone: chance(0.05) ? phoneFor(where) : null,
      githubUrl: chance(0.92) ? `https://github.com/${handle.replace(/_/g, '-')}` : null,
    });
  }

  return { funds, companies, people, kols, builders, rounds };
}
