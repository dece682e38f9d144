import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';

const api = await startTestApi();

describe('authentication', () => {
  it('answers 401 with the contract body and WWW-Authenticate when the key is missing, malformed or unknown', async () => {
    for (const key of [null, 'not-a-key', `oik_${'x'.repeat(40)}`]) {
      const res = await api.call('GET', '/users/me', { key });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
      expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('rotates the key: the new key works, the old one stops at once, the profile shows the new last four', async () => {
    const { key } = await api.newUser();
    const rotated = await api.call('POST', '/users/me/api-key', { key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.api_key).toMatch(/^oik_[A-Za-z0-9_-]{40}$/);
    expect(rotated.body.api_key_last_four).toBe(rotated.body.api_key.slice(-4));
    expect((await api.call('GET', '/users/me', { key })).status).toBe(401);
    const me = await api.call('GET', '/users/me', { key: rotated.body.api_key });
    expect(me.status).toBe(200);
    expect(me.body.api_key_last_four).toBe(rotated.body.api_key_last_four);
  });
});

describe('GET and PATCH /users/me', () => {
  it('returns the profile of a new developer account', async () => {
    const { key, user } = await api.newUser({ credits: 250 });
    const res = await api.call('GET', '/users/me', { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: user.id,
      email: user.email,
      full_name: null,
      is_active: true,
      role: 'user',
      subscription_tier: 'developer',
      subscription_status: 'inactive',
      current_period_end: null,
      permanent_credit_balance: 250,
      api_key_last_four: key.slice(-4),
      referral_code: user.referralCode,
    });
  });

  it('changes only the fields sent', async () => {
    const { key, user } = await api.newUser();
    const res = await api.call('PATCH', '/users/me', { key, body: { full_name: 'Ada Lovelace' } });
    expect(res.status).toBe(200);
    expect(res.body.full_name).toBe('Ada Lovelace');
    expect(res.body.email).toBe(user.email);
  });

  it('refuses an e-mail already in use, whatever its case, with 409 email_in_use', async () => {
    const a = await api.newUser();
    const b = await api.newUser();
    const res = await api.call('PATCH', '/users/me', { key: b.key, body: { email: a.user.email.toUpperCase() } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('email_in_use');
  });

  it('frees the old address after a change', async () => {
    const a = await api.newUser();
    const b = await api.newUser();
    const fresh = `moved-${a.user.id}@example.com`;
    expect((await api.call('PATCH', '/users/me', { key: a.key, body: { email: fresh } })).body.email).toBe(fresh);
    expect((await api.call('PATCH', '/users/me', { key: b.key, body: { email: a.user.email } })).status).toBe(200);
  });

  it('rejects unknown properties, bad types and over-long names with 400 validation_error', async () => {
    const { key } = await api.newUser();
    const cases = [{ fullname: 'typo' }, { full_name: 5 }, { full_name: 'x'.repeat(256) }, { email: 'not-an-email' }];
    for (const body of cases) {
      const res = await api.call('PATCH', '/users/me', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.length).toBeGreaterThan(0);
    }
  });

  it('rejects malformed JSON and non-object bodies with 400, and bodies over 1 MiB with 413', async () => {
    const { key } = await api.newUser();
    expect(
      (
        await api.call('PATCH', '/users/me', {
          key,
          rawBody: '{"full_name":',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect((await api.call('PATCH', '/users/me', { key, body: [1, 2] })).status).toBe(400);
    const big = await api.call('PATCH', '/users/me', { key, body: { full_name: 'x'.repeat(1024 * 1024) } });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('payload_too_large');
  });
});

describe('public endpoints', () => {
  it('serves health without a key', async () => {
    const res = await api.call('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('answers unknown paths with 404 not_found in the contract body', async () => {
    const res = await api.call('GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('races and lenient clients', () => {
  it('answers parallel key rotations with one new key and 401 for the rest, never 500', async () => {
    const { key } = await api.newUser();
    const answers = await Promise.all([1, 2, 3].map(() => api.call('POST', '/users/me/api-key', { key })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 401)).toBe(true);
    const winners = answers.filter((a) => a.status === 200).map((a) => a.body.api_key as string);
    const working = await Promise.all(
      winners.map(async (k) => (await api.call('GET', '/users/me', { key: k })).status),
    );
    expect(working.filter((s) => s === 200)).toHaveLength(1);
  });

  it('applies parallel e-mail changes without a 500, ending on one of them', async () => {
    const { key, user } = await api.newUser();
    const targets = [1, 2, 3].map((i) => `race-${i}-${user.id}@example.com`);
    const answers = await Promise.all(targets.map((email) => api.call('PATCH', '/users/me', { key, body: { email } })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(targets).toContain((await api.call('GET', '/users/me', { key })).body.email);
  });

  it('accepts {} on a POST that takes no body, and stores a blank name as null', async () => {
    const { key } = await api.newUser();
    expect((await api.call('POST', '/users/me/api-key', { key, body: {} })).status).toBe(200);
    const { key: other } = await api.newUser();
    const res = await api.call('PATCH', '/users/me', { key: other, body: { full_name: '   ' } });
    expect(res.status).toBe(200);
    expect(res.body.full_name).toBeNull();
  });
});
