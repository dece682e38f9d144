/**
 * Enrichment jobs on companies outside the curated data, enriched by the real Hunter (and
 * ZeroBounce) adapters against their recording stand-ins: the waterfall, the deployment-wide
 * answer cache, failures that fail nothing, a provider without a key, and charging only what was found.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reloadConfig } from '#shared/config/config';
import { getBalance } from '#shared/domain/credits/credits';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from '#shared/store/client';
import { providerPauseKey } from '#shared/store/keys';
import { startTestApi } from '#test/support/api';
import { useOwnTable } from '#test/support/ownTable';
import { startHunterStandIn, type HunterCompany } from '#bin/standIns/hunterStandIn';
import { startZeroBounceStandIn } from '#bin/standIns/zeroBounceStandIn';

const HUNTER_KEY = 'e2e-hunter-key';
const ZEROBOUNCE_KEY = 'e2e-zerobounce-key';

/** Invented companies, one per test, so no test finds another's answers in the cache. */
const company = (
  domain: string,
  name: string,
  people: HunterCompany['people'],
  employees = '11-50',
): HunterCompany => ({
  domain,
  name,
  employees,
  people,
});
const person = (
  first: string,
  last: string,
  domain: string,
  position: string,
  verification: HunterCompany['people'][number]['verification'],
) => ({
  first_name: first,
  last_name: last,
  position,
  linkedin: null,
  email: `${first.toLowerCase()}@${domain}`,
  confidence: 90,
  verification,
});

const COMPANIES = [
  company('orbitforge-e2e.io', 'Orbitforge', [
    person('Lena', 'Marsh', 'orbitforge-e2e.io', 'Founder & CEO', 'valid'),
    person('Kofi', 'Adjei', 'orbitforge-e2e.io', 'Head of Growth', 'accept_all'),
  ]),
  company('cachedcoin-e2e.io', 'Cached Coin', [person('Ada', 'Voss', 'cachedcoin-e2e.io', 'CTO', 'valid')], '51-200'),
  company('ratelimited-e2e.io', 'Rate Limited', [person('Ola', 'Berg', 'ratelimited-e2e.io', 'CEO', 'valid')]),
  company('keyless-e2e.io', 'Keyless', [person('Ivo', 'Kent', 'keyless-e2e.io', 'CEO', 'valid')]),
  company('fallback-e2e.io', 'Fallback', [person('Uma', 'Rowe', 'fallback-e2e.io', 'CEO', 'valid')]),
  company('finder-e2e.io', 'Finder', [person('Noor', 'Haddad', 'finder-e2e.io', 'COO', 'valid')]),
];

const hunter = await startHunterStandIn(HUNTER_KEY, COMPANIES);
const zeroBounce = await startZeroBounceStandIn(ZEROBOUNCE_KEY, { 'uma@fallback-e2e.io': { status: 'catch-all' } });

const ENV = {
  HUNTER_API_KEY: HUNTER_KEY,
  HUNTER_API_BASE: hunter.apiBase,
  ZEROBOUNCE_API_BASE: zeroBounce.apiBase,
  ENRICHMENT_PROVIDERS: 'hunter',
};
const saved = Object.fromEntries(Object.keys({ ...ENV, ZEROBOUNCE_API_KEY: '' }).map((n) => [n, process.env[n]]));
const setEnv = (values: Record<string, string | undefined>) => {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadConfig();
};
setEnv(ENV);

// Its own table: a provider paused here (429, 401) is paused for the whole table, as for a deployment.
await useOwnTable('outreach-providers');
const api = await startTestApi();

/** Ends any pause a test left, as if its time had passed. */
const endPauses = () =>
  Promise.all(
    ['hunter', 'zerobounce'].map((p) =>
      ddb().send(new DeleteCommand({ TableName: table(), Key: providerPauseKey(p) })),
    ),
  );

beforeEach(async () => {
  hunter.reset();
  zeroBounce.reset();
  await endPauses();
});
afterEach(() => setEnv({ ...ENV, ZEROBOUNCE_API_KEY: undefined }));
afterAll(async () => {
  setEnv(saved);
  await hunter.close();
  await zeroBounce.close();
});

async function runJob(body: unknown) {
  const { key, user } = await api.newUser({ tier: 'pro', credits: 10_000 });
  const created = await api.call('POST', '/bd/jobs', { key, body });
  expect(created.status).toBe(202);
  await api.ports.queue.drained();
  const job = (await api.call('GET', `/bd/jobs/${created.body.job_id}`, { key })).body;
  const rows = (await api.call('GET', `/bd/jobs/${created.body.job_id}/export?format=json`, { key })).body.rows;
  return { job, rows, key, user };
}

const fullPipeline = (...domains: string[]) => ({
  preset: 'full_pipeline',
  input_assets: { companies: domains.map((domain) => ({ company_name: domain.split('-')[0], domain })) },
});

describe('a job on a company outside the curated data, enriched from Hunter', () => {
  it('delivers contacts, addresses, verification statuses and the size, each with its source, charged for what it found', async () => {
    const { job, rows, user } = await runJob(fullPipeline('orbitforge-e2e.io'));
    expect(job).toMatchObject({ status: 'completed', error_message: null, warnings: [] });
    // One search found both people with their addresses: no email-finder call is bought for them.
    expect(hunter.calls.map((c) => [c.path, c.query.domain ?? c.query.email, c.query.api_key])).toEqual(
      expect.arrayContaining([
        ['/companies/find', 'orbitforge-e2e.io', HUNTER_KEY],
        ['/domain-search', 'orbitforge-e2e.io', HUNTER_KEY],
        ['/email-verifier', 'lena@orbitforge-e2e.io', HUNTER_KEY],
        ['/email-verifier', 'kofi@orbitforge-e2e.io', HUNTER_KEY],
      ]),
    );
    expect(hunter.calls).toHaveLength(4);
    expect(rows).toHaveLength(2);
    const lena = rows.find((r: { first_name: string }) => r.first_name === 'Lena');
    expect(lena).toMatchObject({
      domain: 'orbitforge-e2e.io',
      employee_count: 11,
      company_size_status: 'resolved',
      company_size_source: 'hunter',
      full_name: 'Lena Marsh',
      title: 'Founder & CEO',
      person_source: 'hunter',
      contact_source: 'contact_discovery',
      email: 'lena@orbitforge-e2e.io',
      email_source: 'hunter',
      email_confidence: 0.9,
      email_status: 'deliverable',
      email_reasons: [],
      email_status_source: 'hunter',
    });
    expect(rows.find((r: { first_name: string }) => r.first_name === 'Kofi')).toMatchObject({
      email_status: 'risky',
      email_reasons: ['accept_all'],
      email_status_source: 'hunter',
    });
    expect(job.stats.units).toEqual({
      qualification: 1,
      company_size: 1,
      contact_discovery: 2,
      email_lookup: 2,
      email_verify: 2,
    });
    expect(job.stats.email_statuses).toEqual({ deliverable: 1, risky: 1, undeliverable: 0, unknown: 0 });
    expect(job.stats.rows_by_source).toEqual({ hunter: 2 });
    expect(job.credits_charged).toBe(1 + 1 + 2 * 2 + 3 * 2 + 2);
    expect((await getBalance(user.id)).available).toBe(10_000 - job.credits_charged);
  });

  it("looks a supplied contact's address up with email-finder, by the name and domain given", async () => {
    const { job, rows } = await runJob({
      requested_capabilities: ['email_lookup'],
      input_assets: {
        contacts: [
          { full_name: 'Noor Haddad', domain: 'finder-e2e.io' },
          { first_name: 'Not', last_name: 'Known', domain: 'finder-e2e.io' },
        ],
      },
    });
    // The rows of a batch are looked up at once: the calls arrive in either order.
    expect(
      hunter.calls.map((c) => [c.path, c.query]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ).toEqual([
      ['/email-finder', { domain: 'finder-e2e.io', first_name: 'Noor', last_name: 'Haddad', api_key: HUNTER_KEY }],
      ['/email-finder', { domain: 'finder-e2e.io', first_name: 'Not', last_name: 'Known', api_key: HUNTER_KEY }],
    ]);
    expect(rows).toEqual([
      expect.objectContaining({ email: 'noor@finder-e2e.io', email_source: 'hunter', email_confidence: 0.9 }),
      expect.objectContaining({ first_name: 'Not', email: null, email_source: null }),
    ]);
    // One address found: 3 credits; the one not found costs nothing.
    expect(job.credits_charged).toBe(3);
  });

  it('buys the same lookup once: a second customer with the same job is answered from the remembered answers', async () => {
    const first = await runJob(fullPipeline('cachedcoin-e2e.io'));
    const bought = hunter.calls.length;
    expect(bought).toBe(3);
    hunter.reset();
    const second = await runJob(fullPipeline('cachedcoin-e2e.io'));
    expect(hunter.calls).toEqual([]);
    expect(second.rows).toEqual(first.rows);
    expect(second.rows[0]).toMatchObject({
      employee_count: 51,
      email: 'ada@cachedcoin-e2e.io',
      email_source: 'hunter',
    });
    // Each customer pays for the values delivered to them, wherever they came from.
    expect(second.job.credits_charged).toBe(first.job.credits_charged);
  });

  it('a provider answering 429 or failing slows nothing and fails nothing: warnings name it, the rest is delivered', async () => {
    hunter.failAll('/domain-search', 429, 3600);
    hunter.failAll('/companies/find', 503);
    const started = Date.now();
    const { job, rows } = await runJob(fullPipeline('ratelimited-e2e.io', 'nebulalabs.io'));
    expect(job).toMatchObject({ status: 'completed', error_message: null });
    // The usage limit stops Hunter's searches for the batch: asked once, never waited for an hour.
    expect(hunter.callsTo('/domain-search')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(job.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^hunter \/domain-search: HTTP 429 .*not asked again.*asked to wait 3600 s/),
        expect.stringMatching(/^hunter \/companies\/find: HTTP 503/),
      ]),
    );
    // The curated company is enriched as before; the failed one is delivered without what failed, and not charged for it.
    expect(rows.filter((r: { domain: string }) => r.domain === 'nebulalabs.io').length).toBeGreaterThan(0);
    expect(rows.find((r: { domain: string }) => r.domain === 'ratelimited-e2e.io')).toMatchObject({
      full_name: null,
      employee_count: null,
      company_size_status: 'unresolved',
      company_size_source: null,
    });
    expect(job.stats.units.company_size).toBe(1);
    // The spent quota pauses Hunter for every worker for as long as it asked: the next job does not call it.
    hunter.reset();
    const paused = await runJob(fullPipeline('ratelimited-e2e.io'));
    expect(hunter.calls).toEqual([]);
    expect(paused.job.status).toBe('completed');
    expect(paused.job.warnings).toEqual([
      expect.stringMatching(/^hunter: paused until .* \(hunter \/domain-search: HTTP 429/),
    ]);
    // A failure is not remembered as an answer: once the pause is over, the same lookup is bought.
    await endPauses();
    hunter.reset();
    const again = await runJob(fullPipeline('ratelimited-e2e.io'));
    expect(hunter.callsTo('/domain-search')).toHaveLength(1);
    expect(again.rows[0]).toMatchObject({ full_name: 'Ola Berg', person_source: 'hunter' });
  });

  it('a provider without a key is skipped: no call, no warning, the job completes on the curated data', async () => {
    setEnv({ HUNTER_API_KEY: undefined, ENRICHMENT_PROVIDERS: 'zerobounce,hunter' });
    const { job, rows } = await runJob(fullPipeline('keyless-e2e.io'));
    expect(hunter.calls).toEqual([]);
    expect(zeroBounce.calls).toEqual([]);
    expect(job).toMatchObject({ status: 'completed', warnings: [] });
    expect(rows).toEqual([expect.objectContaining({ domain: 'keyless-e2e.io', full_name: null })]);
    expect(job.credits_charged).toBe(1);
  });

  it('a lookup that found nothing costs nothing, and is not bought again', async () => {
    const { job, rows } = await runJob(fullPipeline('nobody-knows-e2e.io'));
    expect(hunter.calls.map((c) => [c.path, c.status])).toEqual(
      expect.arrayContaining([
        ['/companies/find', 404],
        ['/domain-search', 200],
      ]),
    );
    expect(rows).toEqual([expect.objectContaining({ full_name: null, company_size_status: 'unresolved' })]);
    expect(job.stats.units).toMatchObject({ company_size: 0, contact_discovery: 0 });
    // Qualification is the only delivered value (1 credit per company scored).
    expect(job.credits_charged).toBe(1);
    hunter.reset();
    await runJob(fullPipeline('nobody-knows-e2e.io'));
    expect(hunter.calls).toEqual([]);
  });
});

describe('the waterfall goes on to the next provider', () => {
  it('when Hunter cannot verify, ZeroBounce does (its catch-all is risky, accept_all); both are named', async () => {
    setEnv({ ZEROBOUNCE_API_KEY: ZEROBOUNCE_KEY, ENRICHMENT_PROVIDERS: 'hunter,zerobounce' });
    hunter.failAll('/email-verifier', 401);
    const { job, rows } = await runJob(fullPipeline('fallback-e2e.io'));
    expect(job.status).toBe('completed');
    expect(zeroBounce.calls).toEqual([
      { path: '/validate', query: { api_key: ZEROBOUNCE_KEY, email: 'uma@fallback-e2e.io', ip_address: '' } },
    ]);
    expect(rows[0]).toMatchObject({
      person_source: 'hunter',
      email_source: 'hunter',
      email_status: 'risky',
      email_reasons: ['accept_all'],
      email_status_source: 'zerobounce',
    });
    expect(job.stats.rows_by_source).toEqual({ hunter: 1, zerobounce: 1 });
    expect(job.warnings).toEqual([expect.stringMatching(/^hunter \/email-verifier: HTTP 401/)]);
  });

  it("a provider's `unknown` is not an answer: the next provider is asked, and with none sure the rules' verdict stands", async () => {
    setEnv({ ZEROBOUNCE_API_KEY: ZEROBOUNCE_KEY, ENRICHMENT_PROVIDERS: 'hunter,zerobounce' });
    const { job, rows } = await runJob({
      preset: 'verify_existing_emails',
      input_assets: { contacts: [{ email: 'someone@unsure-e2e.io' }, { email: 'x@mailinator.com' }] },
    });
    expect(hunter.calls.map((c) => [c.path, c.query.email, c.status])).toEqual([
      ['/email-verifier', 'someone@unsure-e2e.io', 200],
    ]);
    expect(zeroBounce.calls.map((c) => c.query.email)).toEqual(['someone@unsure-e2e.io']);
    expect(rows).toEqual([
      expect.objectContaining({
        email: 'someone@unsure-e2e.io',
        email_status: 'deliverable',
        email_status_source: 'rules',
      }),
      // A disposable address is ruled out here, with no call bought.
      expect.objectContaining({
        email: 'x@mailinator.com',
        email_status: 'undeliverable',
        email_reasons: ['disposable'],
        email_status_source: 'rules',
      }),
    ]);
    expect(job.credits_charged).toBe(2);
  });
});
