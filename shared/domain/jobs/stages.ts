/**
 * What each capability does to a batch, as a table of stage runners over the provider interfaces.
 * A runner returns the batch's rows after the stage, the units it consumed (what is charged) and
 * the counters it adds to the job's stats. No I/O of its own: providers do the looking up.
 */
import { CAPABILITIES, MAX_CONTACTS_PER_COMPANY, type Capability } from './capabilities';
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
  /** The budget ran out with rows still to work on: they pass through untouched (see stoppedWarning). */
  stopped: boolean;
}

/**
 * `budget` is the most units the stage may produce (what the job can still pay for; Infinity when it
 * is not bounded): a runner stops there and leaves the remaining rows untouched.
 */
type StageRunner = (
  input: StageInput,
  settings: StageSettings,
  providers: Providers,
  budget: number,
) => Promise<StageOutput>;

/**
 * Works the rows that `need` it, in order, never producing more than `budget` units: rows go in
 * parallel waves of as many as could each produce `most` units and still fit, so an unbounded budget
 * is one wave of all of them; the last rows of a tight budget go one at a time, each told (`cap`) how
 * many units are left. `results[i]` is undefined for a row not worked.
 */
async function workWithin<T, R extends { units: number }>(
  rows: T[],
  budget: number,
  most: number,
  need: (row: T) => boolean,
  work: (row: T, cap: number) => Promise<R>,
): Promise<{ results: (R | undefined)[]; units: number; stopped: boolean }> {
  const results: (R | undefined)[] = rows.map(() => undefined);
  const pending = rows.flatMap((row, i) => (need(row) ? [i] : []));
  let units = 0;
  while (pending.length > 0) {
    const left = budget - units;
    if (left <= 0) return { results, units, stopped: true };
    const wave = pending.splice(0, Math.max(1, Math.floor(left / most)));
    const done = await Promise.all(wave.map((i) => work(rows[i], Math.min(most, left))));
    done.forEach((r, n) => {
      results[wave[n]] = r;
      units += r.units;
    });
  }
  return { results, units, stopped: false };
}

/** The job's warning for a capability its budget stopped (one per capability, whichever batch stopped). */
export const stoppedWarning = (capability: Capability): string =>
  `${CAPABILITIES[capability].label} stopped before every row was done: the balance could not cover the next ${CAPABILITIES[capability].unit} (${CAPABILITIES[capability].unitCredits} credits); the rows before it are delivered.`;

/** A stage's answer when it rewrote rows of one kind in place (the rows it did not reach stay as they came). */
function rewrote<K extends 'companies' | 'contacts'>(
  input: StageInput,
  kind: K,
  worked: { results: ({ row: StageInput[K][number] } | undefined)[]; units: number; stopped: boolean },
  counters: StageOutput['counters'] = {},
): StageOutput {
  const rows = (input[kind] as StageInput[K][number][]).map((row, i) => worked.results[i]?.row ?? row);
  return { ...input, [kind]: rows, units: worked.units, counters, stopped: worked.stopped };
}

const RUNNERS: Record<Exclude<Capability, 'deliverable_finalize'>, StageRunner> = {
  async qualification({ companies, contacts }, settings, providers, budget) {
    const worked = await workWithin(
      companies,
      budget,
      1,
      () => true,
      async (company) => {
        const q = await providers.qualification.run({ company, criteria: settings.criteria });
        const qualified = isQualified(q, settings.criteria);
        const row: CompanyRow = {
          ...company,
          qualification: { score: q.score, qualified, reasons: q.reasons },
          dropped: settings.icpGate === 'apply' && !qualified,
        };
        return { row, units: 1 };
      },
    );
    const scored = companies.map((c, i) => worked.results[i]?.row ?? c);
    return {
      companies: scored,
      contacts,
      units: worked.units,
      counters: {
        companies_qualified: scored.filter((c) => c.qualification?.qualified).length,
        companies_dropped: scored.filter((c) => c.dropped).length,
      },
      stopped: worked.stopped,
    };
  },

  async company_size({ companies, contacts }, _settings, providers, budget) {
    const worked = await workWithin(
      companies,
      budget,
      1,
      (c) => !c.dropped,
      async (company) => {
        const size = await providers.company_size.run({ company });
        const { employee_count } = size;
        const resolved = employee_count !== null;
        const row: CompanyRow = {
          ...company,
          company_size: {
            employee_count,
            status: resolved ? 'resolved' : 'unresolved',
            source: resolved ? size.source : null,
          },
        };
        return { row, units: resolved ? 1 : 0 };
      },
    );
    return rewrote({ companies, contacts }, 'companies', worked);
  },

  async contact_discovery({ companies, contacts }, settings, providers, budget) {
    const worked = await workWithin(
      companies,
      budget,
      MAX_CONTACTS_PER_COMPANY,
      (c) => !c.dropped,
      async (company, cap) => {
        const people = await providers.contact_discovery.run({
          company,
          roleFocus: settings.roleFocus,
          limit: cap,
        });
        const found = people.slice(0, cap).map(
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
        return { found, units: found.length };
      },
    );
    const discovered = worked.results.flatMap((r) => r?.found ?? []);
    return {
      companies,
      contacts: [...contacts, ...discovered],
      units: worked.units,
      counters: {},
      stopped: worked.stopped,
    };
  },

  async linkedin_enrich({ companies, contacts }, _settings, providers, budget) {
    const worked = await workWithin(
      contacts,
      budget,
      1,
      (c) => Boolean(c.linkedin_url),
      async (contact): Promise<{ row: ContactRow; units: number }> => {
        const profile = await providers.linkedin_enrich.run({ linkedinUrl: contact.linkedin_url as string });
        if (!profile) return { row: { ...contact, linkedin_enrich: { status: 'not_found' } }, units: 0 };
        // Supplied values win: the profile only fills gaps.
        const row: ContactRow = {
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
        return { row, units: 1 };
      },
    );
    return rewrote({ companies, contacts }, 'contacts', worked);
  },

  async email_lookup({ companies, contacts }, _settings, providers, budget) {
    const worked = await workWithin(
      contacts,
      budget,
      1,
      (c) => !c.email,
      async (contact): Promise<{ row: ContactRow; units: number }> => {
        const result = await providers.email_lookup.run({ contact });
        if (!result.email)
          return {
            row: { ...contact, email_lookup: { status: 'not_found', source: null, pattern: null, confidence: null } },
            units: 0,
          };
        const row: ContactRow = {
          ...contact,
          email: result.email,
          email_lookup: {
            status: 'found',
            source: result.source,
            pattern: result.pattern,
            confidence: result.confidence,
          },
        };
        return { row, units: 1 };
      },
    );
    return rewrote({ companies, contacts }, 'contacts', worked);
  },

  async email_verify({ companies, contacts }, _settings, providers, budget) {
    const counters: Partial<Record<StatCounter, number>> = {};
    const worked = await workWithin(
      contacts,
      budget,
      1,
      (c) => Boolean(c.email),
      async (contact) => {
        const verification = await providers.email_verify.run({ email: contact.email as string });
        counters[verification.status] = (counters[verification.status] ?? 0) + 1;
        const row: ContactRow = {
          ...contact,
          email_verification: {
            status: verification.status,
            reasons: verification.reasons,
            source: verification.source,
          },
        };
        return { row, units: 1 };
      },
    );
    return rewrote({ companies, contacts }, 'contacts', worked, counters);
  },
};

export function runStage(
  capability: Capability,
  input: StageInput,
  settings: StageSettings,
  providers: Providers,
  budget = Number.POSITIVE_INFINITY,
): Promise<StageOutput> {
  if (capability === 'deliverable_finalize') throw new Error('deliverable_finalize runs once per job, not per batch');
  return RUNNERS[capability](input, settings, providers, budget);
}
