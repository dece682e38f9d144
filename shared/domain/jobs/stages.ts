/**
 * What each capability does to a batch, as a table of stage runners over the provider interfaces.
 * A runner returns the batch's rows after the stage, the units it consumed (what is charged) and
 * the counters it adds to the job's stats. No I/O of its own: providers do the looking up.
 */
import { MAX_CONTACTS_PER_COMPANY, type Capability } from './capabilities';
import { isQualified } from './qualification';
import type { CompanyRow, ContactRow } from './rows';
import type { IcpCriteria, Providers } from './providers/types';

export const STAT_COUNTERS = [
  'companies_qualified',
  'companies_dropped',
  'deliverable',
  'risky',
  'undeliverable',
  'unknown',
] as const;
export type StatCounter = (typeof STAT_COUNTERS)[number];

export interface StageSettings {
  criteria: IcpCriteria;
  icpGate: 'skip' | 'apply';
  roleFocus: string[];
}

export interface StageInput {
  companies: CompanyRow[];
  contacts: ContactRow[];
}

export interface StageOutput extends StageInput {
  units: number;
  counters: Partial<Record<StatCounter, number>>;
}

type StageRunner = (input: StageInput, settings: StageSettings, providers: Providers) => Promise<StageOutput>;

const live = (companies: CompanyRow[]) => companies.filter((c) => !c.dropped);

async function mapRows<T, R>(rows: T[], fn: (row: T) => Promise<R>): Promise<R[]> {
  return Promise.all(rows.map(fn));
}

const RUNNERS: Record<Exclude<Capability, 'deliverable_finalize'>, StageRunner> = {
  async qualification({ companies, contacts }, settings, providers) {
    const scored = await mapRows(companies, async (company) => {
      const q = await providers.qualification.run({ company, criteria: settings.criteria });
      const qualified = isQualified(q, settings.criteria);
      return {
        ...company,
        qualification: { score: q.score, qualified, reasons: q.reasons },
        dropped: settings.icpGate === 'apply' && !qualified,
      };
    });
    const qualified = scored.filter((c) => c.qualification.qualified).length;
    return {
      companies: scored,
      contacts,
      units: scored.length,
      counters: { companies_qualified: qualified, companies_dropped: scored.filter((c) => c.dropped).length },
    };
  },

  async company_size({ companies, contacts }, _settings, providers) {
    const sized = await mapRows(companies, async (company) => {
      if (company.dropped) return company;
      const size = await providers.company_size.run({ company });
      const { employee_count } = size;
      const resolved = employee_count !== null;
      return {
        ...company,
        company_size: {
          employee_count,
          status: resolved ? 'resolved' : 'unresolved',
          source: resolved ? size.source : null,
        } as const,
      };
    });
    return {
      companies: sized,
      contacts,
      units: sized.filter((c) => c.company_size?.status === 'resolved').length,
      counters: {},
    };
  },

  async contact_discovery({ companies, contacts }, settings, providers) {
    const found = await mapRows(live(companies), async (company) => {
      const people = await providers.contact_discovery.run({
        company,
        roleFocus: settings.roleFocus,
        limit: MAX_CONTACTS_PER_COMPANY,
      });
      return people.slice(0, MAX_CONTACTS_PER_COMPANY).map(
        (p, n): ContactRow => ({
          row_id: `co-${company.input_index}-${n}`,
          source: 'contact_discovery',
          company_input_index: company.input_index,
          full_name: p.full_name,
          first_name: p.first_name,
          last_name: p.last_name,
          title: p.title,
          company_name: company.company_name,
          domain: company.domain,
          email: null,
          linkedin_url: p.linkedin_url,
          person_id: p.person_id,
          location: p.location,
          person_source: p.source,
          found_email: p.found_email ?? null,
        }),
      );
    });
    const discovered = found.flat();
    return { companies, contacts: [...contacts, ...discovered], units: discovered.length, counters: {} };
  },

  async linkedin_enrich({ companies, contacts }, _settings, providers) {
    let enriched = 0;
    const next = await mapRows(contacts, async (contact): Promise<ContactRow> => {
      if (!contact.linkedin_url) return contact;
      const profile = await providers.linkedin_enrich.run({ linkedinUrl: contact.linkedin_url });
      if (!profile) return { ...contact, linkedin_enrich: { status: 'not_found' } };
      enriched += 1;
      // Supplied values win: the profile only fills gaps.
      return {
        ...contact,
        person_id: contact.person_id ?? profile.person_id,
        full_name: contact.full_name ?? profile.full_name,
        first_name: contact.first_name ?? profile.first_name,
        last_name: contact.last_name ?? profile.last_name,
        title: contact.title ?? profile.title,
        company_name: contact.company_name ?? profile.company_name,
        location: contact.location ?? profile.location,
        x_url: contact.x_url ?? profile.x_url,
        github_url: contact.github_url ?? profile.github_url,
        linkedin_enrich: { status: 'enriched' },
      };
    });
    return { companies, contacts: next, units: enriched, counters: {} };
  },

  async email_lookup({ companies, contacts }, _settings, providers) {
    let found = 0;
    const next = await mapRows(contacts, async (contact): Promise<ContactRow> => {
      if (contact.email) return contact;
      const result = await providers.email_lookup.run({ contact });
      if (!result.email)
        return { ...contact, email_lookup: { status: 'not_found', source: null, pattern: null, confidence: null } };
      found += 1;
      return {
        ...contact,
        email: result.email,
        email_lookup: {
          status: 'found',
          source: result.source,
          pattern: result.pattern,
          confidence: result.confidence,
        },
      };
    });
    return { companies, contacts: next, units: found, counters: {} };
  },

  async email_verify({ companies, contacts }, _settings, providers) {
    const counters: Partial<Record<StatCounter, number>> = {};
    let checked = 0;
    const next = await mapRows(contacts, async (contact): Promise<ContactRow> => {
      if (!contact.email) return contact;
      const verification = await providers.email_verify.run({ email: contact.email });
      checked += 1;
      counters[verification.status] = (counters[verification.status] ?? 0) + 1;
      return {
        ...contact,
        email_verification: { status: verification.status, reasons: verification.reasons, source: verification.source },
      };
    });
    return { companies, contacts: next, units: checked, counters };
  },
};

export function runStage(
  capability: Capability,
  input: StageInput,
  settings: StageSettings,
  providers: Providers,
): Promise<StageOutput> {
  if (capability === 'deliverable_finalize') throw new Error('deliverable_finalize runs once per job, not per batch');
  return RUNNERS[capability](input, settings, providers);
}
