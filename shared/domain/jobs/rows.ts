/** The rows a job carries through its stages (the deliverable rows it ends with are DeliverableRow, capabilities.ts). */
import type { SourcedVerification, ValueSource } from './sources';

export interface CompanyRow {
  /** Position in input_assets.companies, so results can be traced back to the request. */
  input_index: number;
  company_name: string;
  domain: string;
  website: string | null;
  qualification?: { score: number; qualified: boolean; reasons: string[] };
  company_size?: { employee_count: number | null; status: 'resolved' | 'unresolved'; source: ValueSource | null };
  /** Set when icp_gate "apply" found the company unqualified: later stages skip it and charge nothing for it. */
  dropped?: boolean;
}

export interface ContactRow {
  /** Stable within the job: `in-<index>` for supplied contacts, `co-<company index>-<n>` for discovered ones. */
  row_id: string;
  source: 'input' | 'contact_discovery';
  company_input_index: number | null;
  full_name: string | null;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  company_name: string | null;
  domain: string | null;
  email: string | null;
  linkedin_url: string | null;
  /** Curated person behind a discovered or enriched contact. */
  person_id?: string | null;
  /** Who found the person (contact discovery): `curated` or a provider's name. */
  person_source?: ValueSource | null;
  /** An address the provider that found the person listed with them (an e-mail lookup delivers it). */
  found_email?: { email: string; confidence: number | null; source: ValueSource } | null;
  x_url?: string | null;
  github_url?: string | null;
  location?: string | null;
  email_lookup?: {
    status: 'found' | 'not_found';
    source: ValueSource | null;
    pattern: string | null;
    confidence: number | null;
  };
  email_verification?: SourcedVerification;
  linkedin_enrich?: { status: 'enriched' | 'not_found' };
}
