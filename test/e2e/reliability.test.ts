import { describe, expect, it } from 'vitest';
import { stripeSignatures as loadStripeSignatures } from '#shared/adapters/stripeSignatures';
import { uuidv7 } from '#shared/ids';
import { startTestApi } from '#test/support/api';

const stripeSignatures = await loadStripeSignatures();

const api = await startTestApi();

describe('Cache-Control: no-store on secrets and authenticated responses', () => {
  it('marks the rotated key, the profile and errors no-store; a public document stays cacheable', async () => {
    const { key } = await api.newUser();
    const rotated = await api.call('POST', '/users/me/api-key', { key });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const me = await api.call('GET', '/users/me', { key: rotated.body.api_key });
    expect(me.headers.get('cache-control')).toBe('no-store');
    const unauthorized = await api.call('GET', '/users/me', { key });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('cache-control')).toBe('no-store');
    const health = await api.call('GET', '/health');
    expect(health.headers.get('cache-control')).toBeNull();
  });

  it("marks the local server's own error answers and the event stream's errors no-store", async () => {
    const missing = await api.call('GET', '/no-such-endpoint');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    const { key } = await api.newUser();
    const notAcceptable = await api.call('GET', '/bd/jobs/00000000-0000-7000-8000-000000000000/events', {
      key,
      headers: { accept: 'application/json' },
    });
    expect(notAcceptable.status).toBeGreaterThanOrEqual(400);
    expect(notAcceptable.headers.get('cache-control')).toBe('no-store');
  });
});

describe('Stripe webhook: future timestamps, oversized bodies, events that cannot apply', () => {
  const secret = process.env.STRIPE_WEBHOOK_SECRET!;
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const post = (event: unknown, timestamp = nowSeconds()) => {
    const payload = JSON.stringify(event);
    const signature = stripeSignatures.generateTestHeaderString({ payload, secret, timestamp });
    return api.call('POST', '/webhooks/stripe', {
      rawBody: payload,
      headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
    });
  };
  const event = (type: string, object: unknown, created: unknown = nowSeconds()) => ({
    id: `evt_${uuidv7()}`,
    type,
    created,
    data: { object },
  });

  it('refuses a signature dated more than 5 minutes ahead, accepts one slightly ahead', async () => {
    const ahead = await post(event('ping.unknown', {}), nowSeconds() + 3600);
    expect(ahead.status).toBe(400);
    expect(ahead.body.error.code).toBe('validation_error');
    expect((await post(event('ping.unknown', {}), nowSeconds() + 60)).status).toBe(200);
  });

  it('refuses a body over 1 MiB with 413 and the contract body', async () => {
    const res = await post(event('ping.unknown', { pad: 'x'.repeat(1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBeTypeOf('string');
  });

  it('acknowledges signed events naming no known user or carrying malformed objects with 200, never 500', async () => {
    const ghost = uuidv7();
    const cases = [
      event('checkout.session.completed', { id: 'cs_x', client_reference_id: ghost, metadata: {} }),
      event('invoice.paid', { subscription: 'sub_nobody', subscription_details: { metadata: { user_id: ghost } } }),
      event('customer.subscription.deleted', { id: 'sub_nobody', metadata: { user_id: ghost } }),
      event('checkout.session.completed', { id: 'cs_y', client_reference_id: ghost, metadata: {} }, 'yesterday'),
      event('invoice.paid', {
        subscription: 'sub_x',
        subscription_details: { metadata: { user_id: ghost } },
        lines: { data: [{ period: { start: 1e20 } }] },
      }),
      event('checkout.session.completed', null),
      event('customer.subscription.updated', 'not an object'),
      { id: `evt_${uuidv7()}`, type: 'invoice.paid' },
    ];
    for (const e of cases) {
      const res = await post(e);
      expect(res.status, JSON.stringify(e)).toBe(200);
      expect(res.body.received).toBe(true);
    }
  });
});

describe('timestamps and dates in requests are validated, not only labelled', () => {
  const expect400 = (res: { status: number; body: any }, label: string) => {
    expect(res.status, label).toBe(400);
    expect(res.body.error.code, label).toBe('validation_error');
    expect(res.body.request_id, label).toBeTypeOf('string');
  };

  it('refuses a chat message created_at that is not an ISO 8601 date-time on a real day', async () => {
    const { key } = await api.newUser();
    const chat = await api.call('POST', '/chats', { key, body: { title: 't' } });
    expect(chat.status).toBe(201);
    const put = (created_at: string) =>
      api.call('PUT', `/chats/${chat.body.id}`, {
        key,
        body: { messages: [{ role: 'user', content: 'hi', created_at }] },
      });
    for (const created_at of [
      'yesterday',
      '2026-13-01T00:00:00Z',
      '2026-02-30T10:00:00Z',
      '0000-01-01T00:00:00Z',
      '2026-01-01',
    ]) {
      expect400(await put(created_at), created_at);
    }
    expect((await put('2026-02-28T10:00:00.000Z')).status).toBe(200);
  });

  it('refuses credit usage dates outside years 1-9999 or that do not exist', async () => {
    const { key } = await api.newUser();
    for (const date of ['0000-01-01', '99999-01-01', '2026-02-30', '2025-02-29']) {
      expect400(await api.call('GET', `/credits/usage?start_date=${date}`, { key }), date);
      expect400(await api.call('GET', `/credits/usage?end_date=${date}`, { key }), date);
    }
    expect((await api.call('GET', '/credits/usage?start_date=2024-02-29&end_date=2024-03-01', { key })).status).toBe(
      200,
    );
  });

  it('refuses Telegram updates with impossible dates', async () => {
    for (const date of [-1, 1e20, 1.5]) {
      const body = { update_id: 1, message: { message_id: 1, date, text: 'hi' } };
      expect400(await api.call('POST', `/integrations/moderation/telegram/${uuidv7()}`, { body }), String(date));
    }
  });
});
