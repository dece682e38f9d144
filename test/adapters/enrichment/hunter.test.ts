import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { hunter, employeesLowerBound } from '#shared/adapters/enrichment/hunter';
import type { CallPolicy } from '#shared/adapters/enrichment/port';
import { startHunterStandIn } from '#bin/standIns/hunterStandIn';

const KEY = 'hunter-test-key';
const stand = await startHunterStandIn(KEY);
afterAll(() => stand.close());

const waits: number[] = [];
const policy: CallPolicy = {
  timeoutMs: 2_000,
  attempts: 3,
  maxWaitMs: 2_000,
  sleep: async (ms) => {
    waits.push(ms);
  },
};
const lookups = hunter.create({ key: KEY, base: stand.apiBase, policy });

beforeEach(() => {
  stand.reset();
  waits.length = 0;
});

describe('Hunter API v2 adapter against the recording stand-in', () => {
  it('domain-search: sends domain, limit, type and the key in the query; reads the people with their addresses', async () => {
    const out = await lookups.contact_discovery?.({ domain: 'lumenrelay.xyz', limit: 5 });
    expect(stand.calls).toEqual([
      {
        path: '/domain-search',
        query: { domain: 'lumenrelay.xyz', limit: '5', type: 'personal', api_key: KEY },
        status: 200,
      },
    ]);
    expect(out).toEqual({
      ok: true,
      value: [
        {
          full_name: 'Ines Calloway',
          first_name: 'Ines',
          last_name: 'Calloway',
          title: 'Co-founder & CEO',
          linkedin_url: 'https://www.linkedin.com/in/ines-calloway-lr',
          email: 'ines@lumenrelay.xyz',
          email_confidence: 0.96,
        },
        {
          full_name: 'Tomas Brandt',
          first_name: 'Tomas',
          last_name: 'Brandt',
          title: 'Head of Partnerships',
          linkedin_url: null,
          email: 'tomas.brandt@lumenrelay.xyz',
          email_confidence: 0.88,
        },
      ],
    });
  });

  it('domain-search of a domain Hunter does not know finds nobody', async () => {
    expect(await lookups.contact_discovery?.({ domain: 'nobody-here.io', limit: 5 })).toEqual({ ok: true, value: [] });
  });

  it('a LinkedIn handle becomes a profile URL', async () => {
    const out = await lookups.contact_discovery?.({ domain: 'copperfieldchain.io', limit: 5 });
    expect(out?.ok && out.value?.[0].linkedin_url).toBe('https://www.linkedin.com/in/maren-osei-cc');
  });

  it('email-finder: domain, first_name and last_name; the score becomes a 0..1 confidence; an unknown person is nothing found', async () => {
    expect(
      await lookups.email_lookup?.({ domain: 'copperfieldchain.io', first_name: 'Maren', last_name: 'Osei' }),
    ).toEqual({ ok: true, value: { email: 'maren@copperfieldchain.io', confidence: 0.91 } });
    expect(
      await lookups.email_lookup?.({ domain: 'copperfieldchain.io', first_name: 'No', last_name: 'Body' }),
    ).toEqual({ ok: true, value: null });
    expect(stand.callsTo('/email-finder').map((c) => c.query)).toEqual([
      { domain: 'copperfieldchain.io', first_name: 'Maren', last_name: 'Osei', api_key: KEY },
      { domain: 'copperfieldchain.io', first_name: 'No', last_name: 'Body', api_key: KEY },
    ]);
  });

  it.each([
    ['ines@lumenrelay.xyz', { status: 'deliverable', reasons: [] }],
    ['tomas.brandt@lumenrelay.xyz', { status: 'risky', reasons: ['accept_all'] }],
    ['rafa.lindqvist@tidewaterlabs.dev', { status: 'undeliverable', reasons: ['smtp_rejected'] }],
    ['someone@unknown-to-hunter.io', { status: 'unknown', reasons: [] }],
  ])('email-verifier maps %s to our statuses and reasons', async (email, expected) => {
    expect(await lookups.email_verify?.({ email })).toEqual({ ok: true, value: expected });
    expect(stand.calls).toEqual([{ path: '/email-verifier', query: { email, api_key: KEY }, status: 200 }]);
  });

  it("email-verifier's 202 means ask again: it waits and asks the same question", async () => {
    stand.verifyLater('ines@lumenrelay.xyz');
    expect(await lookups.email_verify?.({ email: 'ines@lumenrelay.xyz' })).toEqual({
      ok: true,
      value: { status: 'deliverable', reasons: [] },
    });
    expect(stand.calls.map((c) => c.status)).toEqual([202, 200]);
    expect(waits).toEqual([1000]);
  });

  it('companies/find: the lower bound of metrics.employees; an unknown company (404) is nothing found', async () => {
    expect(await lookups.company_size?.({ domain: 'copperfieldchain.io' })).toEqual({
      ok: true,
      value: { employee_count: 51 },
    });
    expect(await lookups.company_size?.({ domain: 'nobody-here.io' })).toEqual({ ok: true, value: null });
    expect(stand.callsTo('/companies/find').map((c) => [c.query.domain, c.status])).toEqual([
      ['copperfieldchain.io', 200],
      ['nobody-here.io', 404],
    ]);
  });

  it('a refused key (401) fails the lookup and stops the provider; no retry', async () => {
    const wrong = hunter.create({ key: 'not-the-key', base: stand.apiBase, policy });
    const out = await wrong.company_size?.({ domain: 'copperfieldchain.io' });
    expect(out).toMatchObject({ ok: false, stop: true });
    expect(out?.ok === false && out.error).toContain('hunter /companies/find: HTTP 401');
    expect(stand.calls).toHaveLength(1);
  });

  it('429 (the usage limit) stops the provider with its Retry-After, without waiting', async () => {
    stand.failNext('/domain-search', 429, 3600);
    const out = await lookups.contact_discovery?.({ domain: 'lumenrelay.xyz', limit: 5 });
    expect(out).toMatchObject({ ok: false, stop: true, retryAfterSeconds: 3600 });
    expect(waits).toEqual([]);
    expect(stand.calls).toHaveLength(1);
  });

  it('403 (the per-second limit) is waited for and asked again', async () => {
    stand.failNext('/email-finder', 403, 1);
    const out = await lookups.email_lookup?.({ domain: 'copperfieldchain.io', first_name: 'Maren', last_name: 'Osei' });
    expect(out).toEqual({ ok: true, value: { email: 'maren@copperfieldchain.io', confidence: 0.91 } });
    expect(stand.calls.map((c) => c.status)).toEqual([403, 200]);
    expect(waits).toEqual([1000]);
  });

  it('5xx is asked again up to the attempts, then fails without stopping the provider', async () => {
    stand.failAll('/companies/find', 503);
    const out = await lookups.company_size?.({ domain: 'copperfieldchain.io' });
    expect(out).toMatchObject({ ok: false });
    expect(out?.ok === false && out.stop).toBeFalsy();
    expect(stand.calls.map((c) => c.status)).toEqual([503, 503, 503]);
  });

  it('a wait longer than the policy allows is not waited for', async () => {
    stand.failNext('/email-finder', 403, 30);
    const out = await lookups.email_lookup?.({ domain: 'copperfieldchain.io', first_name: 'Maren', last_name: 'Osei' });
    expect(out).toMatchObject({ ok: false, retryAfterSeconds: 30 });
    expect(waits).toEqual([]);
    expect(stand.calls).toHaveLength(1);
  });

  it('a provider that does not answer in time is a failure, not a hang', async () => {
    const silent = hunter.create({ key: KEY, base: 'http://127.0.0.1:9', policy: { ...policy, timeoutMs: 200 } });
    const out = await silent.company_size?.({ domain: 'copperfieldchain.io' });
    expect(out).toMatchObject({ ok: false });
  });
});

describe('employeesLowerBound', () => {
  it.each([
    ['11-50', 11],
    ['1K-5K', 1000],
    ['10K+', 10000],
    ['', null],
    [null, null],
    ['many', null],
  ])('%s -> %s', (range, expected) => expect(employeesLowerBound(range)).toBe(expected));
});
