import { afterAll, describe, expect, it } from 'vitest';
import { XApi } from '#shared/platforms/x/api';
import { isTransient } from '#shared/platforms/result';
import { startJsonServer } from '#bin/standIns/httpStandIn';

/** A server answering exactly what each test scripts, recording what it was sent. */
let next: { status: number; body?: unknown; headers?: Record<string, string> } = { status: 200, body: {} };
const seen: {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, unknown>;
  body: unknown;
}[] = [];
const server = await startJsonServer((req) => {
  seen.push({
    method: req.method,
    path: req.path,
    query: Object.fromEntries(req.query),
    headers: req.headers,
    body: req.body,
  });
  return next;
});
afterAll(() => server.close());
const nowMs = 1_800_000_000_000;
const api = new XApi(`${server.url}/`, () => nowMs);

describe('XApi', () => {
  it('sends the user token as a bearer, JSON bodies, and answers X data', async () => {
    next = { status: 200, body: { data: { hidden: true } } };
    const out = await api.request('user-token', {
      method: 'PUT',
      route: '/2/tweets/123/hidden',
      body: { hidden: true },
    });
    expect(out).toEqual({ ok: true, result: { data: { hidden: true } } });
    expect(seen.at(-1)).toMatchObject({
      method: 'PUT',
      path: '/2/tweets/123/hidden',
      body: { hidden: true },
      headers: { authorization: 'Bearer user-token', 'content-type': 'application/json' },
    });
  });

  it('puts the query on the URL', async () => {
    next = { status: 200, body: { meta: { result_count: 0 } } };
    await api.request('t', {
      method: 'GET',
      route: '/2/tweets/search/recent',
      query: { query: 'to:acme is:reply -from:acme', since_id: '5' },
    });
    expect(seen.at(-1)).toMatchObject({
      method: 'GET',
      query: { query: 'to:acme is:reply -from:acme', since_id: '5' },
    });
  });

  it('a 429 waits until x-rate-limit-reset (epoch seconds)', async () => {
    next = {
      status: 429,
      body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
      headers: { 'x-rate-limit-reset': String(nowMs / 1000 + 37), 'x-rate-limit-remaining': '0' },
    };
    const out = await api.request('t', { method: 'PUT', route: '/2/tweets/1/hidden', body: { hidden: true } });
    expect(out).toEqual({
      ok: false,
      status: 429,
      error: 'PUT /2/tweets/1/hidden: Too Many Requests',
      retryAfterSeconds: 37,
    });
    expect(isTransient(out)).toBe(true);
  });

  it('a reset already past still waits a second; no header waits a window guess', async () => {
    next = { status: 429, body: {}, headers: { 'x-rate-limit-reset': String(nowMs / 1000 - 5) } };
    expect(await api.request('t', { method: 'GET', route: '/2/users/me' })).toMatchObject({ retryAfterSeconds: 1 });
    next = { status: 429, body: {} };
    expect(await api.request('t', { method: 'GET', route: '/2/users/me' })).toMatchObject({ retryAfterSeconds: 60 });
  });

  it('a 200 with only errors is a failure; errors beside data are not', async () => {
    next = {
      status: 200,
      body: { errors: [{ detail: 'Could not find tweet with id: [9].', title: 'Not Found Error' }] },
    };
    expect(await api.request('t', { method: 'PUT', route: '/2/tweets/9/hidden', body: { hidden: true } })).toEqual({
      ok: false,
      status: 200,
      error: 'PUT /2/tweets/9/hidden: Could not find tweet with id: [9].',
    });
    next = { status: 200, body: { data: [], errors: [{ detail: 'partial' }] } };
    expect((await api.request('t', { method: 'GET', route: '/2/tweets/search/recent' })).ok).toBe(true);
  });

  it("problems keep X's detail and are final", async () => {
    next = {
      status: 403,
      body: {
        title: 'Forbidden',
        detail: 'You attempted to hide a Tweet you cannot hide.',
        type: 'about:blank',
        status: 403,
      },
    };
    const out = await api.request('t', { method: 'PUT', route: '/2/tweets/2/hidden', body: { hidden: true } });
    expect(out).toEqual({
      ok: false,
      status: 403,
      error: 'PUT /2/tweets/2/hidden: You attempted to hide a Tweet you cannot hide.',
    });
    expect(isTransient(out)).toBe(false);
  });

  it('the token endpoint: HTTP Basic client credentials, a form body, OAuth errors by code', async () => {
    next = {
      status: 400,
      body: { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' },
    };
    const out = await api.token('cid', 'sec:ret', { grant_type: 'refresh_token', refresh_token: 'r 1' });
    expect(out).toEqual({
      ok: false,
      status: 400,
      error: 'POST /2/oauth2/token: invalid_request (Value passed for the token was invalid.)',
    });
    const call = seen.at(-1)!;
    expect(call.headers).toMatchObject({
      authorization: `Basic ${Buffer.from('cid:sec:ret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(call.body).toBe('grant_type=refresh_token&refresh_token=r+1');
  });

  it('a network failure is status 0', async () => {
    const out = await new XApi('http://127.0.0.1:9').request('t', { method: 'GET', route: '/2/users/me' });
    expect(out).toMatchObject({ ok: false, status: 0 });
    expect(isTransient(out)).toBe(true);
  });
});
