/**
 * The curated Web3 graph: funds invest in companies through funding rounds; people work at companies
 * and funds; KOLs and hackathon builders stand on their own. Ids are stable strings with a kind prefix
 * (`fund-`, `co-`, `per-`, `kol-`, `bld-`, `rnd-`), so an id alone says what it identifies.
 */
import type {
  BuilderCategoryId,
  EcosystemId,
  FundTypeId,
  JurisdictionId,
  PlatformId,
  RoleFamilyId,
  SectorId,
  StageId,
} from './taxonomy';

/** The newest date in the generated dataset: rounds and activity are dated up to here. */
export const DATASET_AS_OF = '2026-11-15';

/** How a company builds its e-mail addresses, e.g. `first.last` → ada.lovelace@example.io. */
export type EmailPattern = 'first.last' | 'flast' | 'first' | 'firstlast' | 'first_last' | 'lastf' | 'f.last';
export const EMAIL_PATTERNS: EmailPattern[] = [
  'first.last',
  'flast',
  'first',
  'firstlast',
  'first_last',
  'lastf',
  'f.last',
];

export interface Contacts {
  email: string | null;
  linkedinUrl: string | null;
  xUrl: string | null;
  telegramHandle: string | null;
  phone: string | null;
  githubUrl: string | null;
}

export interface CuratedRound {
  id: string;
  companyId: string;
  companyName: string;
  sector: SectorId;
  stage: StageId;
  amountUsd: number;
  /** YYYY-MM-DD */
  announcedOn: string;
  leadFundId: string;
  leadFundName: string;
  /** Every investor, the lead first. */
  investors: { id: string; name: string }[];
}

export interface CuratedFund {
  kind: 'fund';
  id: string;
  name: string;
  domain: string;
  website: string;
  fundType: FundTypeId;
  tier: 1 | 2 | 3;
  jurisdiction: JurisdictionId;
  location: string;
  sectors: SectorId[];
  stages: StageId[];
  minChequeUsd: number;
  maxChequeUsd: number;
  foundedYear: number;
  tagline: string;
  description: string;
  /** The partner who takes intro requests (a CuratedPerson at this fund). */
  partnerId: string | null;
  /** Rounds the fund took part in, newest first. */
  rounds: CuratedRound[];
}

export interface CuratedCompany {
  kind: 'company';
  id: string;
  name: string;
  /** Lower-case registrable domain, e.g. nebulalabs.io */
  domain: string;
  website: string;
  employeeCount: number | null;
  sectors: SectorId[];
  ecosystems: EcosystemId[];
  location: string;
  foundedYear: number;
  tagline: string;
  description: string;
  emailPattern: EmailPattern;
  /** The founder or executive who fields intros. */
  primaryContactId: string | null;
  /** Funding rounds, newest first. */
  rounds: CuratedRound[];
}

export interface CuratedPerson extends Contacts {
  kind: 'person';
  id: string;
  fullName: string;
  firstName: string;
  lastName: string;
  role: string;
  roleFamily: RoleFamilyId;
  /** The company or fund the person works at. */
  organizationKind: 'company' | 'fund';
  companyId: string;
  companyName: string;
  companyDomain: string;
  location: string;
  bio: string;
  /** Sectors the person follows and talks about (user-prospect-v1). */
  interests: SectorId[];
  /** 0..1: how active the person is in communities, forums and governance. */
  engagementScore: number;
  sinceYear: number;
}

export interface CuratedKol extends Contacts {
  kind: 'kol';
  id: string;
  name: string;
  handle: string;
  platform: PlatformId;
  followers: number;
  /** 0..1000: reputation among crypto-native accounts. */
  gmScore: number;
  /** Number of "smart" (high-signal) accounts that follow this one. */
  smarts: number;
  xBioLabel: string;
  xBioReason: string;
  sectors: SectorId[];
  location: string;
  description: string;
}

export interface HackathonEntry {
  hackathon: string;
  year: number;
  project: string;
  challenge: string;
  won: boolean;
  prizeUsd: number;
}

export interface CuratedBuilder extends Contacts {
  kind: 'builder';
  id: string;
  name: string;
  handle: string;
  category: BuilderCategoryId;
  skills: string[];
  role: string;
  companyId: string | null;
  companyName: string | null;
  location: string;
  ecosystems: EcosystemId[];
  hackathons: HackathonEntry[];
  totalHackathonsAttended: number;
  totalHackathonsWon: number;
  totalWinningsUsd: number;
  /** Commits to public repositories in the last 90 days. */
  commitsLast90d: number;
  /** YYYY-MM-DD */
  lastActiveOn: string;
  description: string;
}

export type CuratedEntity = CuratedFund | CuratedCompany | CuratedPerson | CuratedKol | CuratedBuilder;
export type EntityKind = CuratedEntity['kind'];

export interface CuratedDataset {
  funds: CuratedFund[];
  companies: CuratedCompany[];
  people: CuratedPerson[];
  kols: CuratedKol[];
  builders: CuratedBuilder[];
  rounds: CuratedRound[];
}

/** An address in the company's pattern; null when a name part is missing. */
export function emailFor(pattern: EmailPattern, firstName: string, lastName: string, domain: string): string {
  const clean = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z]/g, '');
  const f = clean(firstName);
  const l = clean(lastName);
  const local: Record<EmailPattern, string> = {
    'first.last': `${f}.${l}`,
    flast: `${f[0]}${l}`,
    first: f,
    firstlast: `${f}${l}`,
    first_last: `${f}_${l}`,
    lastf: `${l}${f[0]}`,
    'f.last': `${f[0]}.${l}`,
  };
  return `${local[pattern]}@${domain}`;
}
