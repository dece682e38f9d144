import { beforeAll, describe, expect, it } from 'vitest';
import { importCuratedRecords } from '#bin/curated/importer';
import { COVERAGE_SAMPLE } from '#shared/domain/growth/resolve';
import { coverageDomains, coverageModeOf } from '#shared/domain/growth/coverage';
import { dynamoRequestCount } from '#shared/store/client';
import { companyLookup, findByName, getCompanyByDomain } from '#shared/store/curatedReads';
import { startTestApi } from '#test/support/api';

/**
 * growth resolve: 1,000 pasted CSV rows cost at most 20 DynamoDB requests (the
 * curated lookups are batched), with the same coverage and settled domains as one lookup a key gives.
 * The counter sees every DynamoDB request this process sends, server included.
 */
const api = await startTestApi();
const GOAL = 'Find the work emails of the founders at these companies';

// The known companies: the seed's fixed ones (in every seed, whatever re-seed another file runs in the
// shared table) and 200 imported here (imports survive re-seeds), each with a name of its own.
const FIXED = [
  { id: 'co-nebula', name: 'Nebula Labs', domain: 'nebulalabs.io' },
  { id: 'co-quiet', name: 'Quiet Protocol', domain: 'quietprotocol.xyz' },
];
const imported = Array.from({ length: 200 }, (_, i) => ({
  id: `co-rtg-${String(i).padStart(3, '0')}`,
  name: `Roundtrip Known ${i} Labs`,
  domain: `rtg-known-${i}.io`,
}));
const known = [...FIXED, ...imported];

beforeAll(async () => {
  const lines = imported.map((c) =>
    JSON.stringify({
      kind: 'company',
      ...c,
      domain: c.id.endsWith('7') ? `https://www.${c.domain}/` : c.domain,
      sectors: ['rwa'],
      employeeCount: 12,
      emailPattern: 'flast',
    }),
  );
  const outcome = await importCuratedRecords(lines.join('\n'));
  expect(outcome.problems).toEqual([]);
  expect(outcome.ok).toBe(true);
});

/** The forms of a known domain the lookup must recognise: as written, as a URL, a subdomain (parent fallback). */
const forms = (domain: string) => [
  domain,
  `https://www.${domain}/about`,
  `app.${domain}`,
  `eu.app.${domain}`,
  `docs.${domain}`,
];

async function requestsFor<T>(call: () => Promise<T>): Promise<{ result: T; requests: number }> {
  const before = dynamoRequestCount();
  const result = await call();
  return { result, requests: dynamoRequestCount() - before };
}

/** What the per-key lookups (one Query a domain or name) say: the expectations, computed before the call is judged. */
async function expectedFor(
  body: { normalized_input_assets: Parameters<typeof coverageDomains>[0] },
  nameOnly: string[],
) {
  const sample = coverageDomains(body.normalized_input_assets).slice(0, COVERAGE_SAMPLE);
  let hits = 0;
  for (const domain of sample) if (await getCompanyByDomain(domain)) hits++;
  const settled = new Map<string, string | undefined>();
  for (const name of nameOnly) settled.set(name, (await findByName('company', name))[0]?.domain);
  return { mode: coverageModeOf(hits, sample.length), hits, sampleSize: sample.length, settled };
}

async function resolve(key: string, rows: string[]) {
  const input_text = ['Company,Website', ...rows].join('\n');
  expect(input_text.length).toBeLessThanOrEqual(50_000);
  const { result: res, requests } = await requestsFor(() =>
    api.call('POST', '/growth/resolve', { key, body: { goal_text: GOAL, input_text } }),
  );
  expect(res.status).toBe(200);
  return { body: res.body, requests };
}

describe('POST /growth/resolve with 1,000 CSV rows', () => {
  it('costs at most 20 DynamoDB requests for a mix of known and unknown domains and bare names, with the per-key coverage and domains', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    expect((await api.call('GET', '/users/me', { key })).status).toBe(200);
    const withDomain = known.slice(0, Math.floor(known.length / 2));
    const nameOnlyKnown = known.slice(withDomain.length);
    const rows: string[] = [];
    for (const [i, c] of withDomain.entries()) rows.push(`${c.name},${forms(c.domain)[i % 5]}`);
    for (const [i, c] of nameOnlyKnown.entries()) rows.push(i % 2 ? `${c.name.toUpperCase()},` : `${c.name},`);
    const nameOnlyUnknown: string[] = [];
    for (let i = 0; rows.length < 600; i++)
      rows.push(`Unknown Rt Co ${i},unknown-rt-${i}.example${i % 3 ? '' : '/pricing'}`);
    for (let i = 0; rows.length < 1000; i++) {
      nameOnlyUnknown.push(`Nameless Rt ${i}`);
      rows.push(`Nameless Rt ${i},`);
    }
    // Known and unknown rows interleaved, so the coverage sample (the first 500 domains) holds both.
    const mixed = rows
      .map((row, i) => ({ row, order: (i * 7919) % rows.length }))
      .sort((a, b) => a.order - b.order)
      .map((r) => r.row);
    expect(mixed).toHaveLength(1000);

    const { body, requests } = await resolve(key, mixed);
    const nameOnly = [...nameOnlyKnown.map((c, i) => (i % 2 ? c.name.toUpperCase() : c.name)), ...nameOnlyUnknown];
    const expected = await expectedFor(body, nameOnly);

    // Known names settle on their curated domain; unknown bare names are rejected for want of one.
    for (const c of nameOnlyKnown)
      expect(expected.settled.get(c.name) ?? expected.settled.get(c.name.toUpperCase())).toBe(c.domain);
    const companies = body.normalized_input_assets.companies as { company_name: string; domain: string }[];
    for (const name of nameOnly) {
      const domain = expected.settled.get(name);
      if (domain) expect(companies, name).toContainEqual(expect.objectContaining({ company_name: name, domain }));
      else
        expect(body.input_report.rejected, name).toContainEqual(
          expect.objectContaining({ kind: 'company', reason: 'no_domain' }),
        );
    }
    const noDomain = (body.input_report.rejected as { reason: string }[]).filter(
      (r) => r.reason === 'no_domain',
    ).length;
    expect(noDomain).toBe([...expected.settled.values()].filter((d) => d === undefined).length);
    expect(companies).toHaveLength(600);
    expect(expected.sampleSize).toBe(COVERAGE_SAMPLE);
    expect(expected.hits).toBeGreaterThan(0);
    expect(expected.hits).toBeLessThan(expected.sampleSize);
    expect(body.coverage_mode).toBe(expected.mode);
    expect(body.goal_plan.coverage_mode).toBe(expected.mode);
    expect(requests).toBeLessThanOrEqual(20);
  });

  it('costs at most 20 DynamoDB requests when every row is known, and finds every one (coverage sufficient)', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    expect((await api.call('GET', '/users/me', { key })).status).toBe(200);
    const rows: string[] = [];
    for (let i = 0; rows.length < 1000; i++) {
      const c = known[i % known.length];
      const form = forms(c.domain)[Math.floor(i / known.length) % 5];
      rows.push(`${c.name} ${Math.floor(i / known.length)},${form}`);
    }
    const { body, requests } = await resolve(key, rows);
    const expected = await expectedFor(body, []);
    expect(expected.hits).toBe(expected.sampleSize);
    expect(body.coverage_mode).toBe('sufficient');
    expect(body.coverage_mode).toBe(expected.mode);
    expect(requests).toBeLessThanOrEqual(20);
  });

  it('sees an import at once: a company moved to another domain and name is found there only, as by the per-key lookups', async () => {
    const company = { kind: 'company', id: 'co-rtg-move', sectors: ['rwa'], employeeCount: 3, emailPattern: 'flast' };
    expect(
      (
        await importCuratedRecords(
          JSON.stringify({ ...company, name: 'Rtg Before Move', domain: 'rtg-before-move.io' }),
        )
      ).ok,
    ).toBe(true);
    expect([...(await companyLookup().knownDomains(['app.rtg-before-move.io', 'rtg-after-move.io']))]).toEqual([
      'app.rtg-before-move.io',
    ]);
    expect(
      (await importCuratedRecords(JSON.stringify({ ...company, name: 'Rtg After Move', domain: 'rtg-after-move.io' })))
        .ok,
    ).toBe(true);
    const lookup = companyLookup();
    const domains = [
      'app.rtg-before-move.io',
      'rtg-before-move.io',
      'https://www.rtg-after-move.io/x',
      'rtg-after-move.io',
    ];
    const perKey = await Promise.all(domains.map(async (d) => ((await getCompanyByDomain(d)) ? [d] : [])));
    expect([...(await lookup.knownDomains(domains))]).toEqual(perKey.flat());
    expect([...(await lookup.knownDomains(domains))]).toEqual(['https://www.rtg-after-move.io/x', 'rtg-after-move.io']);
    const names = await lookup.companiesByName(['Rtg Before Move', 'RTG AFTER MOVE']);
    expect([...names.keys()]).toEqual(['RTG AFTER MOVE']);
    expect(names.get('RTG AFTER MOVE')!.domain).toBe((await findByName('company', 'rtg after move'))[0].domain);
  });
});
