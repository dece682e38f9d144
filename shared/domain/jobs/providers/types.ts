/**
 * One provider interface per capability. The built-in providers (./builtin) need no network: they
 * read the curated dataset and apply local rules. An external provider (a paid lookup API, a
 * real SMTP probe) plugs in behind the same interface through installProviders().
 */
import type { CompanyRow, ContactRow } from '#shared/domain/jobs/rows';
import type { SourcedVerification, ValueSource } from '#shared/domain/jobs/sources';

export interface Provider<Input, Output> {
  /** Recorded on the rows it produced, e.g. `curated`, `rules`. */
  readonly name: string;
  run(input: Input): Promise<Output>;
}

/** ICP criteria (the job's icp_config) plus the job's niche. */
export interface IcpCriteria {
  industries?: string[];
  locations?: string[];
  keywords?: string[];
  min_employees?: number;
  max_employees?: number;
  min_score?: number;
  niche?: string;
}

export interface Qualification {
  score: number;
  reasons: string[];
}

export interface CompanySize {
  employee_count: number | null;
  /** Where the count came from (`curated`, a provider's name); null when nothing was found. */
  source: ValueSource | null;
}

export interface DiscoveredContact {
  /** The curated person; null for someone an outside provider found. */
  person_id: string | null;
  full_name: string;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  linkedin_url: string | null;
  location: string | null;
  /** `curated`, or the provider that found the person. */
  source: ValueSource;
  /** An address the provider listed with the person: delivered only by an e-mail lookup, which then buys nothing. */
  found_email?: { email: string; confidence: number | null; source: ValueSource } | null;
}

export interface EmailLookup {
  email: string | null;
  /** `curated`, `pattern`, or the provider that found the address. */
  source: ValueSource | null;
  /** The inferred local-part pattern, e.g. `{first}.{last}`, when source is `pattern`. */
  pattern: string | null;
  /** 0..1; 1 for a curated address. */
  confidence: number | null;
}

export { VERIFY_REASONS, type EmailVerification, type VerifyReason } from '#shared/domain/jobs/verification';

export interface LinkedinProfile {
  person_id: string;
  full_name: string;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  company_name: string | null;
  location: string | null;
  x_url: string | null;
  github_url: string | null;
}

export interface Providers {
  qualification: Provider<{ company: CompanyRow; criteria: IcpCriteria }, Qualification>;
  company_size: Provider<{ company: CompanyRow }, CompanySize>;
  contact_discovery: Provider<{ company: CompanyRow; roleFocus: string[]; limit: number }, DiscoveredContact[]>;
  linkedin_enrich: Provider<{ linkedinUrl: string }, LinkedinProfile | null>;
  email_lookup: Provider<{ contact: ContactRow }, EmailLookup>;
  email_verify: Provider<{ email: string }, SourcedVerification>;
}
