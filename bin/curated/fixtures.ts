/**
 * Well-known rows the generator always includes, at fixed ids, so tests, demos and the README can name
 * them. They sit among the generated rows and are ranked by the same rules:
 *
 *   fund-polaris     Polaris Ventures (polaris.vc): tier 1 VC, DeFi / infrastructure / privacy, seed and
 *                    Series A, cheques $500k-$3M; leads many DeFi seed rounds, so it tops DeFi seed shortlists.
 *   fund-lattice     Lattice Capital (lattice.capital): tier 2 VC that co-invests with Polaris again and again.
 *   co-nebula        Nebula Labs (nebulalabs.io): DeFi, 42 employees, addresses first.last@nebulalabs.io;
 *                    six people per-nebula-1 .. per-nebula-6 (CEO Ada Park first); seed led by Polaris with Lattice.
 *   co-quiet         Quiet Protocol (quietprotocol.xyz): privacy, employee count unknown (null), addresses first@;
 *                    three people per-quiet-1 .. per-quiet-3.
 *   kol-lena         Lena Ortiz (@lenaonchain on X): DeFi researcher, GM Score 912.
 *   bld-kai          Kai Nakamura: smart contract engineer on Ethereum and Base, won ETHGlobal Bangkok 2025.
 */
import type {
  CuratedBuilder,
  CuratedCompany,
  CuratedFund,
  CuratedKol,
  CuratedPerson,
  CuratedRound,
} from '#shared/domain/curated/model';

export const FIXED_IDS = {
  polaris: 'fund-polaris',
  lattice: 'fund-lattice',
  nebula: 'co-nebula',
  quiet: 'co-quiet',
  lena: 'kol-lena',
  kai: 'bld-kai',
} as const;

const noRounds: CuratedRound[] = [];

export const FIXED_FUNDS: CuratedFund[] = [
  {
    kind: 'fund',
    id: FIXED_IDS.polaris,
    name: 'Polaris Ventures',
    domain: 'polaris.vc',
    website: 'https://polaris.vc',
    fundType: 'vc',
    tier: 1,
    jurisdiction: 'united-states',
    location: 'San Francisco, United States',
    sectors: ['defi', 'infrastructure', 'privacy'],
    stages: ['seed', 'series-a'],
    minChequeUsd: 500_000,
    maxChequeUsd: 3_000_000,
    foundedYear: 2017,
    tagline: 'Conviction capital for open finance.',
    description:
      'Polaris Ventures backs DeFi and infrastructure teams from seed to Series A, usually as lead, and works hands-on on token design and liquidity.',
    partnerId: 'per-polaris-1',
    rounds: noRounds,
  },
  {
    kind: 'fund',
    id: FIXED_IDS.lattice,
    name: 'Lattice Capital',
    domain: 'lattice.capital',
    website: 'https://lattice.capital',
    fundType: 'vc',
    tier: 2,
    jurisdiction: 'united-kingdom',
    location: 'London, United Kingdom',
    sectors: ['defi', 'layer2', 'data'],
    stages: ['pre-seed', 'seed', 'series-a'],
    minChequeUsd: 250_000,
    maxChequeUsd: 1_500_000,
    foundedYear: 2019,
    tagline: 'Early, technical, European.',
    description:
      'Lattice Capital writes early cheques into DeFi and scaling teams and often follows Polaris Ventures into rounds.',
    partnerId: 'per-lattice-1',
    rounds: noRounds,
  },
];

export const FIXED_COMPANIES: CuratedCompany[] = [
  {
    kind: 'company',
    id: FIXED_IDS.nebula,
    name: 'Nebula Labs',
    domain: 'nebulalabs.io',
    website: 'https://nebulalabs.io',
    employeeCount: 42,
    sectors: ['defi'],
    ecosystems: ['ethereum', 'arbitrum', 'base'],
    location: 'Berlin, Germany',
    foundedYear: 2022,
    tagline: 'Intent-based lending for onchain treasuries.',
    description:
      'Nebula Labs runs an intent-based lending market that lets DAO treasuries borrow against staked assets without liquidation cascades.',
    emailPattern: 'first.last',
    primaryContactId: 'per-nebula-1',
    rounds: noRounds,
  },
  {
    kind: 'company',
    id: FIXED_IDS.quiet,
    name: 'Quiet Protocol',
    domain: 'quietprotocol.xyz',
    website: 'https://quietprotocol.xyz',
    employeeCount: null,
    sectors: ['privacy'],
    ecosystems: ['ethereum', 'starknet'],
    location: 'Zug, Switzerland',
    foundedYear: 2023,
    tagline: 'Private payments with public compliance.',
    description:
      'Quiet Protocol builds zero-knowledge shielded payments with selective disclosure for regulated wallets.',
    emailPattern: 'first',
    primaryContactId: 'per-quiet-1',
    rounds: noRounds,
  },
];

type PersonSeed = [
  id: string,
  first: string,
  last: string,
  role: string,
  family: CuratedPerson['roleFamily'],
  channels: Partial<CuratedPerson>,
];

const person = (
  org: CuratedCompany | CuratedFund,
  [id, firstName, lastName, role, roleFamily, channels]: PersonSeed,
  email: (f: string, l: string) => string,
): CuratedPerson => ({
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
  location: org.location,
  bio: `${role} at ${org.name}.`,
  interests: [...org.sectors],
  engagementScore: 0.7,
  sinceYear: 2022,
  email: email(firstName, lastName),
  linkedinUrl: `https://www.linkedin.com/in/${firstName.toLowerCase()}-${lastName.toLowerCase()}-${id.slice(-1)}a`,
  xUrl: null,
  telegramHandle: null,
  phone: null,
  githubUrl: null,
  ...channels,
});

const [nebula, quiet] = FIXED_COMPANIES;
const [polaris, lattice] = FIXED_FUNDS;
const lower = (s: string) => s.toLowerCase();

export const FIXED_PEOPLE: CuratedPerson[] = [
  ...(
    [
      [
        'per-nebula-1',
        'Ada',
        'Park',
        'Co-founder & CEO',
        'leadership',
        { xUrl: 'https://x.com/adapark', telegramHandle: '@adapark', phone: '+49 30 5550 1201' },
      ],
      [
        'per-nebula-2',
        'Liam',
        'Chen',
        'Co-founder & CTO',
        'engineering',
        { githubUrl: 'https://github.com/liamchen', xUrl: 'https://x.com/liamchen_eth' },
      ],
      [
        'per-nebula-3',
        'Sofia',
        'Rossi',
        'Head of Growth',
        'marketing',
        { xUrl: 'https://x.com/sofiarossi', telegramHandle: '@sofia_rossi' },
      ],
      [
        'per-nebula-4',
        'Noah',
        'Kim',
        'Senior Solidity Engineer',
        'engineering',
        { githubUrl: 'https://github.com/noahkim-sol', linkedinUrl: null },
      ],
      ['per-nebula-5', 'Maya', 'Patel', 'Business Development Lead', 'bd', { telegramHandle: '@mayapatel' }],
      [
        'per-nebula-6',
        'Ethan',
        'Brooks',
        'Community Lead',
        'community',
        { email: null, xUrl: 'https://x.com/ethanbrooks' },
      ],
    ] as PersonSeed[]
  ).map((s) => person(nebula, s, (f, l) => `${lower(f)}.${lower(l)}@nebulalabs.io`)),
  ...(
    [
      ['per-quiet-1', 'Jonas', 'Weber', 'Founder & CEO', 'leadership', { telegramHandle: '@jonasweber' }],
      [
        'per-quiet-2',
        'Amara',
        'Okafor',
        'Head of Cryptography',
        'engineering',
        { githubUrl: 'https://github.com/amaraokafor' },
      ],
      ['per-quiet-3', 'Lucas', 'Moreau', 'Head of Partnerships', 'bd', {}],
    ] as PersonSeed[]
  ).map((s) => person(quiet, s, (f) => `${lower(f)}@quietprotocol.xyz`)),
  person(
    polaris,
    [
      'per-polaris-1',
      'Helena',
      'Vance',
      'General Partner',
      'investment',
      { xUrl: 'https://x.com/helenavance', telegramHandle: '@hvance', phone: '+1 415 555 0142' },
    ],
    (f) => `${lower(f)}@polaris.vc`,
  ),
  person(
    lattice,
    ['per-lattice-1', 'Tom', 'Ashby', 'Partner', 'investment', { xUrl: 'https://x.com/tomashby' }],
    (f, l) => `${lower(f)}.${lower(l)}@lattice.capital`,
  ),
];

export const FIXED_KOLS: CuratedKol[] = [
  {
    kind: 'kol',
    id: FIXED_IDS.lena,
    name: 'Lena Ortiz',
    handle: 'lenaonchain',
    platform: 'x',
    followers: 184_000,
    gmScore: 912,
    smarts: 640,
    xBioLabel: 'DeFi researcher',
    xBioReason:
      'Bio says "lending markets, risk, and the people who break them"; most-engaged threads are DeFi risk teardowns.',
    sectors: ['defi', 'security'],
    location: 'Lisbon, Portugal',
    description: 'Independent DeFi risk researcher whose weekly teardown threads are read by protocol teams and funds.',
    email: 'lena@lenaonchain.com',
    linkedinUrl: 'https://www.linkedin.com/in/lena-ortiz-defi',
    xUrl: 'https://x.com/lenaonchain',
    telegramHandle: '@lenaonchain',
    phone: null,
    githubUrl: null,
  },
];

export const FIXED_BUILDERS: CuratedBuilder[] = [
  {
    kind: 'builder',
    id: FIXED_IDS.kai,
    name: 'Kai Nakamura',
    handle: 'kainak',
    category: 'smart-contract-engineer',
    skills: ['Solidity', 'Foundry', 'Account abstraction', 'TypeScript'],
    role: 'Smart Contract Engineer',
    companyId: FIXED_IDS.nebula,
    companyName: 'Nebula Labs',
    location: 'Tokyo, Japan',
    ecosystems: ['ethereum', 'base'],
    hackathons: [
      {
        hackathon: 'ETHGlobal Bangkok',
        year: 2025,
        project: 'Intent Vaults',
        challenge: 'Best use of account abstraction',
        won: true,
        prizeUsd: 12_000,
      },
      {
        hackathon: 'Base Onchain Summer Buildathon',
        year: 2025,
        project: 'Gasless Guilds',
        challenge: 'Consumer apps',
        won: true,
        prizeUsd: 8_000,
      },
      {
        hackathon: 'ETHDenver BUIDLathon',
        year: 2024,
        project: 'Sigil',
        challenge: 'Wallet UX',
        won: false,
        prizeUsd: 0,
      },
    ],
    totalHackathonsAttended: 3,
    totalHackathonsWon: 2,
    totalWinningsUsd: 20_000,
    commitsLast90d: 412,
    lastActiveOn: '2026-11-18',
    description: 'Ships account-abstraction tooling; two hackathon wins in 2025 on Ethereum and Base.',
    email: 'kai@kainak.dev',
    linkedinUrl: null,
    xUrl: 'https://x.com/kainak',
    telegramHandle: '@kainak',
    phone: null,
    githubUrl: 'https://github.com/kainak',
  },
];
