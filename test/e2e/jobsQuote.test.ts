import { describe, expect, it } from 'vitest';
import { ManualClock } from '#shared/adapters/clock';
import { getBalance } from '#shared/domain/credits/credits';
import { startTestApi } from '#test/support/api';

// The clock is moved by hand (quote expiry) and the pipeline queue is stopped: a created job stays
// pending with its reservation, so what it reserved can be read from the balance.
const clock = new ManualClock(new Date());
const api = await startTestApi({ clock });
api.ports.queue.stop();

const BODY = {
  preset: 'full_pipeline',
  input_assets: {
    companies: [
      { company_name: 'Nebula Labs', website: 'https://www.nebulalabs.io/about' },
      { company_name: 'Quiet Protocol', domain: 'quietprotocol.xyz' },
    ],
  },
};

async function quote(key: string, body: unknown = BODY) {
  const res = await api.call('POST', '/bd/jobs/quote', { key, body });
  expect(res.status, res.text).toBe(200);
  return res.body as {
    quote_token: string;
    credits: number;
    expiry: string;
    breakdown: { capability: string; units: number; unit_credits: number; credits: number }[];
  };
}

const available = async (userId: string) => (await getBalance(userId)).available;

describe('POST /bd/jobs/quote', () => {
  it('prices the request as the create reserves it, by capability, and charges nothing', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const q = await quote(key);
    expect(q.quote_token).toMatch(/^qt_/);
    expect(q.credits).toBeGreaterThan(0);
    expect(q.breakdown.reduce((s, l) => s + l.credits, 0)).toBe(q.credits);
    for (const line of q.breakdown) expect(line.credits).toBe(line.units * line.unit_credits);
    expect(q.breakdown.find((l) => l.capability === 'qualification')?.units).toBe(2);
    expect(Date.parse(q.expiry) - clock.now().getTime()).toBe(15 * 60 * 1000);
    expect(await available(user.id)).toBe(10_000);

    // Without a token the create reserves the same estimate: the quote is the planner's own price.
    const plain = await api.call('POST', '/bd/jobs', { key, body: BODY });
    expect(plain.status).toBe(202);
    expect(plain.body.credits_reserved).toBe(q.credits);
  });

  it('a quoted create reserves the quoted credits once; the token is then used up', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const q = await quote(key);
    const created = await api.call('POST', '/bd/jobs', { key, body: { ...BODY, quote_token: q.quote_token } });
    expect(created.status, created.text).toBe(202);
    expect(created.body.credits_reserved).toBe(q.credits);
    expect(created.headers.get('x-credits-charged')).toBe(String(q.credits));
    expect(await available(user.id)).toBe(10_000 - q.credits);

    const again = await api.call('POST', '/bd/jobs', { key, body: { ...BODY, quote_token: q.quote_token } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('quote_token_used');
    expect(await available(user.id)).toBe(10_000 - q.credits);
  });

  it('parallel creates with one token: exactly one job', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const q = await quote(key);
    const answers = await Promise.all(
      [1, 2, 3].map(() => api.call('POST', '/bd/jobs', { key, body: { ...BODY, quote_token: q.quote_token } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409]);
    expect(await available(user.id)).toBe(10_000 - q.credits);
    expect((await api.call('GET', '/bd/jobs', { key })).body.total).toBe(1);
  });

  it('a token for another body, another caller, or none at all is refused and nothing is reserved', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const other = await api.newUser({ tier: 'pro', credits: 10_000 });
    const q = await quote(key);

    const changed = await api.call('POST', '/bd/jobs', {
      key,
      body: { ...BODY, preset: 'company_size_and_email_verify', quote_token: q.quote_token },
    });
    expect(changed.status).toBe(422);
    expect(changed.body.error.code).toBe('quote_mismatch');
    expect(changed.body.error.message).toMatch(/same job body/);

    const stolen = await api.call('POST', '/bd/jobs', {
      key: other.key,
      body: { ...BODY, quote_token: q.quote_token },
    });
    expect(stolen.status).toBe(422);
    expect(stolen.body.error.code).toBe('quote_mismatch');

    const unknown = await api.call('POST', '/bd/jobs', { key, body: { ...BODY, quote_token: 'qt_not-a-token' } });
    expect(unknown.status).toBe(422);

    expect(await available(user.id)).toBe(10_000);
    expect(await available(other.user.id)).toBe(10_000);
    // The refusals did not use the token up.
    expect((await api.call('POST', '/bd/jobs', { key, body: { ...BODY, quote_token: q.quote_token } })).status).toBe(
      202,
    );
  });

  it('an expired token is 410 and nothing is reserved', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 10_000 });
    const q = await quote(key);
    clock.advance(15 * 60 * 1000 + 1);
    const late = await api.call('POST', '/bd/jobs', { key, body: { ...BODY, quote_token: q.quote_token } });
    expect(late.status).toBe(410);
    expect(late.body.error.code).toBe('quote_expired');
    expect(await available(user.id)).toBe(10_000);
  });

  it('a quote larger than the balance: the create is 402 and nothing is reserved', async () => {
    const { user, key } = await api.newUser({ tier: 'pro', credits: 5 });
    const q = await quote(key);
    expect(q.credits).toBeGreaterThan(5);
    const refused = await api.call('POST', '/bd/jobs', { key, body: { ...BODY, quote_token: q.quote_token } });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({
      code: 'insufficient_credits',
      details: { required: q.credits, available: 5 },
    });
    expect(await available(user.id)).toBe(5);
  });

  it('validates the body as the create does', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 10 });
    const both = await api.call('POST', '/bd/jobs/quote', {
      key,
      body: { ...BODY, requested_capabilities: ['email_verify'] },
    });
    expect(both.status).toBe(400);
    const token = await api.call('POST', '/bd/jobs/quote', { key, body: { ...BODY, quote_token: 'qt_x' } });
    expect(token.status).toBe(400);
  });
});
