import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * every request leaves a structured line with the request id, function,
 * cold start, route and caller, errors carry the same fields, and no line carries a key, a secret
 * or an e-mail address. The lines are captured from the process's own output streams.
 */
// The suite's WARN level is fixed when the logger is built, so this file builds the modules again at INFO.
vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
vi.resetModules();
const { metricTally } = await import('#shared/observability/metrics');
const { startTestApi } = await import('#test/support/api');
const { createLocalApi, listen } = await import('#bin/local/server');
const { DatasetLoadingError } = await import('#shared/domain/errors');
const api = await startTestApi();
const captured: string[] = [];
const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };

beforeAll(() => {
  const tap = (original: typeof process.stdout.write) =>
    ((chunk: unknown, ...rest: unknown[]) => {
      captured.push(String(chunk));
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
  process.stdout.write = tap(writes.out);
  process.stderr.write = tap(writes.err);
});
afterAll(() => {
  process.stdout.write = writes.out;
  process.stderr.write = writes.err;
  vi.unstubAllEnvs();
});

const jsonLines = () =>
  captured
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('structured logs', () => {
  const secrets: string[] = [];
  let userId = '';

  beforeAll(async () => {
    const email = `log-watch-${Date.now()}@example.com`;
    const { key, user } = await api.newUser({ credits: 50, email });
    userId = user.id;
    secrets.push(key, email, process.env.STRIPE_WEBHOOK_SECRET!);
    expect((await api.call('GET', '/users/me', { key })).status).toBe(200);
    const rotated = await api.call('POST', '/users/me/api-key', { key });
    expect(rotated.status).toBe(200);
    secrets.push(rotated.body.api_key);
    const newKey = rotated.body.api_key as string;
    expect((await api.call('PATCH', '/users/me', { key: newKey, body: { email: `changed-${email}` } })).status).toBe(
      200,
    );
    secrets.push(`changed-${email}`);
    expect((await api.call('GET', '/users/me', { key: 'sk_wrong_key_for_logging_test' })).status).toBe(401);
    expect((await api.call('PATCH', '/users/me', { key: newKey, body: { email: 'not-an-address' } })).status).toBe(400);
    const first = (await api.call('POST', '/subscriptions/checkout-session', { key: newKey, body: { tier: 'pro' } }))
      .body;
    const second = (await api.call('POST', '/subscriptions/checkout-session', { key: newKey, body: { tier: 'pro' } }))
      .body;
    expect((await api.call('POST', `${first.checkout_url}/pay`)).status).toBe(200);
    expect((await api.call('POST', `${second.checkout_url}/pay`)).status).toBe(422);
    expect(
      (
        await api.call('POST', '/webhooks/stripe', {
          headers: { 'stripe-signature': 't=1,v1=00' },
          body: { id: 'evt_x' },
        })
      ).status,
    ).toBe(400);
    // Refused by the local server itself, before any handler: no route, no key, a malformed path.
    expect((await api.call('GET', '/no/such/endpoint', { key: newKey })).status).toBe(404);
    expect((await api.call('GET', '/users/me')).status).toBe(401);
    expect((await api.call('GET', '/bd/jobs/%E0%A4%A', { key: newKey })).status).toBe(400);
    // A first start's server while the curated dataset loads.
    const loading = createLocalApi({
      curatedDatasetUnavailable: () => new DatasetLoadingError({ loaded_items: 5, total_items: 10 }, 3),
    });
    const port = await listen(loading, 0);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/intelligence/resolve`, {
        method: 'POST',
        headers: { authorization: `Bearer ${newKey}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(503);
    } finally {
      loading.closeAllConnections();
      await new Promise((r) => loading.close(r));
    }
  });

  it('writes one access line per request with request id, function, cold start, route, status and caller', () => {
    const access = jsonLines().filter((l) => l.message === 'request');
    expect(access.length).toBeGreaterThanOrEqual(6);
    for (const line of access) {
      expect(line).toMatchObject({ level: 'INFO', service: 'outreach-intelligence' });
      for (const field of [
        'requestId',
        'route',
        'status',
        'function_name',
        'function_request_id',
        'cold_start',
        'timestamp',
      ])
        expect(line, field).toHaveProperty(field);
    }
    const me = access.find((l) => l.route === 'GET /api/v1/users/me' && l.status === 200);
    expect(me?.userId).toBe(userId);
    expect(access.some((l) => l.route === 'PATCH /api/v1/users/me' && l.status === 400)).toBe(true);
  });

  it('logs a refused request as one INFO line with its status and code, never a stack trace', () => {
    const refused = jsonLines().filter((l) => l.message === 'request refused');
    expect(refused).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: 'INFO', route: 'GET (unmatched)', status: 404, code: 'not_found' }),
        expect.objectContaining({ level: 'INFO', route: 'GET /api/v1/users/me', status: 401, code: 'unauthorized' }),
        expect.objectContaining({
          level: 'INFO',
          route: 'GET /api/v1/bd/jobs/{job_id}',
          status: 400,
          code: 'validation_error',
        }),
        expect.objectContaining({
          level: 'INFO',
          route: 'POST /api/v1/intelligence/resolve',
          status: 503,
          code: 'dataset_loading',
        }),
      ]),
    );
    for (const line of refused) {
      expect(line).toHaveProperty('requestId');
      // Nothing carried over from the request a handler answered before (its caller above all).
      expect(line).not.toHaveProperty('userId');
    }
    // A stack frame looks like "    at fn (file:line:col)", raw or inside a JSON string.
    expect(captured.join('')).not.toMatch(/(^|\\n|\n)\s+at .+:\d+:\d+/);
    expect(jsonLines().filter((l) => l.level === 'ERROR')).toEqual([]);
  });

  it('logs a refused payment event as a warning with its reason and the caller id only', () => {
    const warning = jsonLines().find((l) => l.message === 'payment event not applied');
    expect(warning).toMatchObject({ level: 'WARN', reason: 'not applicable', userId });
  });

  it('never writes a key, a secret or an e-mail address', () => {
    const text = captured.join('');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/[\w.+-]+@example\.com/);
  });

  it('tallies the business metrics locally', () => {
    const rejected = [...metricTally()].filter(([name]) => name.startsWith('PaymentEventsRejected'));
    expect(rejected.map(([name]) => name)).toEqual(
      expect.arrayContaining(['PaymentEventsRejected reason=signature', 'PaymentEventsRejected reason=not applicable']),
    );
    expect(metricTally().get('PaymentEventsApplied')).toBeGreaterThanOrEqual(1);
  });
});
