/**
 * A 1,000-company full_pipeline job of which half the companies are curated and half are known only
 * to the Hunter stand-in (bin/standIns/hunterStandIn.ts, the real adapter calling it over HTTP), run
 * twice: the first run buys the provider lookups, the second (identical) should buy none. Reports
 * companies per second, provider calls per company by route, the second run's cache hits, credits
 * charged against the values delivered, and the provider spend at each provider's configured price
 * per call against what the delivered e-mails and verifications earn at the pro plan's price.
 */
import { reloadConfig } from '#shared/config/config';
import { generateDataset } from '#bin/curated/generator';
import { seedCuratedDataset } from '#bin/curated/seed';
import { getSeedMarker } from '#shared/store/curatedReads';
import { PRO_PLAN } from '#shared/domain/billing/plans';
import { CAPABILITIES } from '#shared/domain/jobs/capabilities';
import { hunter } from '#shared/adapters/enrichment/hunter';
import type { LookupName } from '#shared/adapters/enrichment/port';
import { startHunterStandIn, type HunterCompany } from '#bin/standIns/hunterStandIn';
import type { BenchSuite } from './harness';

const COMPANIES = 1000;
const PROVIDER_ONLY = 500;
const BENCH_DATASET_SCALE = 0.33;
const USD_PER_CREDIT = PRO_PLAN.monthlyUsd / PRO_PLAN.periodCredits;
const KEY = 'bench-hunter-key';

/** Hunter's routes by the lookup each serves (what a call costs). */
const ROUTE_LOOKUP: Record<string, LookupName> = {
  '/domain-search': 'contact_discovery',
  '/email-finder': 'email_lookup',
  '/email-verifier': 'email_verify',
  '/companies/find': 'company_size',
};

const VERIFICATIONS: HunterCompany['people'][number]['verification'][] = ['valid', 'valid', 'accept_all', 'invalid'];

/** Invented companies known only to the stand-in: two or three people each, most of them verifiable. */
function providerCompanies(): HunterCompany[] {
  return Array.from({ length: PROVIDER_ONLY }, (_, i) => {
    const domain = `provider-only-${i}.example.net`;
    const people = Array.from({ length: 2 + (i % 2) }, (_, n) => ({
      first_name: `First${n}`,
      last_name: `Last${i}`,
      position: n === 0 ? 'CEO' : 'Head of Growth',
      linkedin: null,
      email: `first${n}.last${i}@${domain}`,
      confidence: 80 + n,
      verification: VERIFICATIONS[(i + n) % VERIFICATIONS.length],
    }));
    return { domain, name: `Provider Only ${i}`, employees: i % 3 ? '11-50' : null, people };
  });
}

export const jobsProvidersBench: BenchSuite = {
  name: 'Enrichment jobs with an outside provider (1,000 companies, 500 known only to the Hunter stand-in, run twice)',
  async run({ call, print }) {
    const marker =
      (await getSeedMarker()) ?? (await seedCuratedDataset({ scale: BENCH_DATASET_SCALE, concurrency: 16 })).marker;
    const curated = generateDataset({ seed: marker.seed, scale: marker.scale }).companies.slice(
      0,
      COMPANIES - PROVIDER_ONLY,
    );
    const known = providerCompanies();
    const companies = [
      ...curated.map((c) => ({ company_name: c.name, website: c.website })),
      ...known.map((c) => ({ company_name: c.name, domain: c.domain })),
    ];
    const stand = await startHunterStandIn(KEY, known);
    const saved = ['HUNTER_API_KEY', 'HUNTER_API_BASE', 'ENRICHMENT_PROVIDERS'].map(
      (n) => [n, process.env[n]] as const,
    );
    Object.assign(process.env, { HUNTER_API_KEY: KEY, HUNTER_API_BASE: stand.apiBase, ENRICHMENT_PROVIDERS: 'hunter' });
    reloadConfig();
    try {
      print(`companies in (curated / provider only)    ${companies.length} (${curated.length} / ${known.length})`);
      print(`Hunter prices (${hunter.prices.asOf}, USD per call)     ${JSON.stringify(hunter.prices.usdPerCall)}`);
      for (const round of ['first run', 'second, identical run']) {
        stand.reset();
        const started = performance.now();
        const created = await call('POST', '/bd/jobs', {
          body: { preset: 'full_pipeline', input_assets: { companies } },
          expect: 202,
        });
        // The queue is in-process: wait for the job itself.
        let job = await call('GET', `/bd/jobs/${created.job_id}`);
        while (job.status === 'pending' || job.status === 'running') {
          await new Promise((resolve) => setTimeout(resolve, 200));
          job = await call('GET', `/bd/jobs/${created.job_id}`);
        }
        const wallMs = performance.now() - started;
        if (job.status !== 'completed') throw new Error(`Bench job ended ${job.status}: ${job.error_message}`);
        const byRoute = new Map<string, number>();
        for (const c of stand.calls) byRoute.set(c.path, (byRoute.get(c.path) ?? 0) + 1);
        const spendUsd = [...byRoute].reduce(
          (sum, [route, n]) => sum + n * (hunter.prices.usdPerCall[ROUTE_LOOKUP[route]] ?? 0),
          0,
        );
        const units = job.stats.units as Record<string, number>;
        print(`-- ${round}`);
        print(
          `wall time / throughput                    ${(wallMs / 1000).toFixed(2)} s, ${((COMPANIES / wallMs) * 1000).toFixed(0)} companies/s`,
        );
        print(
          `provider calls                            ${stand.calls.length} (${(stand.calls.length / COMPANIES).toFixed(2)} per company, ${(stand.calls.length / PROVIDER_ONLY).toFixed(2)} per provider-only company): ${JSON.stringify(Object.fromEntries(byRoute))}`,
        );
        print(`rows delivered by source                  ${JSON.stringify(job.stats.rows_by_source)}`);
        for (const warning of job.warnings) print(`warning                                   ${warning}`);
        print(
          `values delivered                          ${units.company_size} sizes, ${units.contact_discovery} contacts, ${units.email_lookup} e-mails, ${units.email_verify} verified`,
        );
        const earned = (capability: keyof typeof CAPABILITIES) =>
          (units[capability] ?? 0) * CAPABILITIES[capability].unitCredits;
        const valueCredits = Object.keys(units).reduce((sum, c) => sum + earned(c as keyof typeof CAPABILITIES), 0);
        print(
          `credits charged / units consumed          ${job.credits_charged} / ${valueCredits} credits (${job.warnings.length} warnings)`,
        );
        print(
          `provider spend / revenue                  $${spendUsd.toFixed(2)} / $${(job.credits_charged * USD_PER_CREDIT).toFixed(2)} at $${USD_PER_CREDIT.toFixed(4)} a credit`,
        );
        const emails = units.email_lookup ?? 0;
        const verified = units.email_verify ?? 0;
        const perEmailCost =
          ((byRoute.get('/domain-search') ?? 0) * (hunter.prices.usdPerCall.contact_discovery ?? 0) +
            (byRoute.get('/email-finder') ?? 0) * (hunter.prices.usdPerCall.email_lookup ?? 0)) /
          Math.max(1, emails);
        const perVerifiedCost =
          ((byRoute.get('/email-verifier') ?? 0) * (hunter.prices.usdPerCall.email_verify ?? 0)) /
          Math.max(1, verified);
        print(
          `margin per delivered e-mail              $${(CAPABILITIES.email_lookup.unitCredits * USD_PER_CREDIT - perEmailCost).toFixed(4)} (earns $${(CAPABILITIES.email_lookup.unitCredits * USD_PER_CREDIT).toFixed(4)}, provider $${perEmailCost.toFixed(4)} incl. the searches)`,
        );
        print(
          `margin per verified address              $${(CAPABILITIES.email_verify.unitCredits * USD_PER_CREDIT - perVerifiedCost).toFixed(4)} (earns $${(CAPABILITIES.email_verify.unitCredits * USD_PER_CREDIT).toFixed(4)}, provider $${perVerifiedCost.toFixed(4)})`,
        );
      }
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      reloadConfig();
      await stand.close();
    }
  },
};
