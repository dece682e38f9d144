import { describe, expect, it } from 'vitest';
import { ledgerBetween } from '#shared/domain/credits/credits';
import { startTestApi } from '#test/support/api';
import { updateCommunitySettings } from '#shared/store/communitiesRepo';

const api = await startTestApi();
const BASE = '/integrations/moderation';
const DAY_MS = 24 * 60 * 60 * 1000;

const communityBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Main chat',
  project_name: 'Acme',
  type: 'telegram',
  ...overrides,
});
const balanceOf = async (key: string) =>
  (await api.call('GET', '/users/me', { key })).body.permanent_credit_balance as number;
const moderationLedger = async (userId: string) =>
  (await ledgerBetween(userId, '2000-01-01', '2100-01-01')).filter((e) => e.tool_name === 'moderation_community');

describe('POST /communities', () => {
  it('provisions a Telegram community pending activation and charges 500 credits once', async () => {
    const { key, user } = await api.newUser({ credits: 1200 });
    const res = await api.call('POST', `${BASE}/communities`, {
      key,
      body: communityBody({
        whitelisted_usernames: ['founder'],
        should_send_welcome_messages: true,
        welcome_message: 'Hi {username}',
        alert_channel_message_template: '{action}: {username}',
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Main chat',
      project_name: 'Acme',
      community_type: 'telegram',
      status: 'pending_activation',
      credits_charged: 500,
      monthly_credit_cost: 500,
      auto_renew: true,
      whitelisted_usernames: ['founder'],
      should_send_welcome_messages: true,
      welcome_message: 'Hi {username}',
      alert_channel_message_template: '{action}: {username}',
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.moderation_id).toMatch(/^mod_/);
    expect(res.body.activation_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Date.parse(res.body.next_billing_at) - Date.parse(res.body.created_at)).toBe(30 * DAY_MS);
    expect(res.body.created_at).toMatch(/\.\d{3}Z$/);

    expect(await balanceOf(key)).toBe(700);
    expect(await moderationLedger(user.id)).toEqual([
      expect.objectContaining({ tool_name: 'moderation_community', credits: 500, ref_id: res.body.id }),
    ]);
  });

  it.each(['reddit', 'x', 'crisp'])(
    'starts a %s community pending activation with its activation token, like every type',
    async (type) => {
      const { key } = await api.newUser({ credits: 500 });
      const res = await api.call('POST', `${BASE}/communities`, { key, body: communityBody({ type }) });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ community_type: type, status: 'pending_activation' });
      expect(res.body.activation_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    },
  );

  it('a reddit, x or crisp community connected before binding was required reads as pending_activation and gets a token once, charged nothing again', async () => {
    for (const type of ['reddit', 'x', 'crisp']) {
      const { key, user } = await api.newUser({ credits: 500 });
      const created = (await api.call('POST', `${BASE}/communities`, { key, body: communityBody({ type }) })).body;
      // As such a community was stored: connected at once, no token, nothing bound.
      await updateCommunitySettings(
        user.id,
        created.id,
        { activationToken: null, activatedAt: created.created_at },
        created.created_at,
      );
      const [first, second] = await Promise.all([
        api.call('GET', `${BASE}/communities/${created.id}`, { key }),
        api.call('GET', `${BASE}/communities`, { key }),
      ]);
      expect(first.body).toMatchObject({ status: 'pending_activation' });
      expect(first.body.activation_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(second.body.items[0]).toMatchObject({
        status: 'pending_activation',
        activation_token: first.body.activation_token,
      });
      expect((await api.call('GET', `${BASE}/status?community_id=${created.id}`, { key })).body).toMatchObject({
        status: 'pending_activation',
        connection_state: 'pending_activation',
      });
      expect(await balanceOf(key)).toBe(0);
      expect(await moderationLedger(user.id)).toHaveLength(1);
      // The token it was given binds it like any other.
      const events = [
        {
          event_id: 'bridge-activation',
          type: 'activation',
          user: { id: 'bridge' },
          token: first.body.activation_token,
          sent_at: created.created_at,
        },
      ];
      expect(
        (await api.call('POST', `${BASE}/communities/${created.id}/events`, { key, body: { events } })).body
          .decisions[0],
      ).toMatchObject({ rule: 'activation', reason: expect.stringContaining('connected') });
      expect((await api.call('GET', `${BASE}/communities/${created.id}`, { key })).body).toMatchObject({
        status: 'connected',
        activation_token: first.body.activation_token,
      });
    }
  });

  it('answers 402 and creates nothing when the balance is short', async () => {
    const { key, user } = await api.newUser({ credits: 499 });
    const res = await api.call('POST', `${BASE}/communities`, { key, body: communityBody() });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'insufficient_credits', details: { required: 500, available: 499 } });
    expect((await api.call('GET', `${BASE}/communities`, { key })).body).toEqual({ items: [], total: 0 });
    expect(await balanceOf(key)).toBe(499);
    expect(await moderationLedger(user.id)).toEqual([]);
  });

  it('never overspends under parallel provisioning: exactly as many communities as the credits pay for', async () => {
    const { key, user } = await api.newUser({ credits: 1200 });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api.call('POST', `${BASE}/communities`, { key, body: communityBody({ name: `c${i}`, type: 'reddit' }) }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 402, 402, 402, 402]);
    expect((await api.call('GET', `${BASE}/communities`, { key })).body.total).toBe(2);
    expect(await balanceOf(key)).toBe(200);
    expect(await moderationLedger(user.id)).toHaveLength(2);
  });

  it('replays the first answer for a repeated Idempotency-Key instead of charging again', async () => {
    const { key } = await api.newUser({ credits: 2000 });
    const headers = { 'idempotency-key': 'provision-once' };
    const first = await api.call('POST', `${BASE}/communities`, { key, body: communityBody(), headers });
    const again = await api.call('POST', `${BASE}/communities`, { key, body: communityBody(), headers });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await balanceOf(key)).toBe(1500);
  });

  it('rejects bad bodies with 400 validation_error', async () => {
    const { key } = await api.newUser({ credits: 5000 });
    const bad = [
      {},
      communityBody({ type: 'slack' }),
      communityBody({ name: '' }),
      communityBody({ colour: 'red' }),
      communityBody({ whitelisted_usernames: 'bob' }),
      { name: 'x', type: 'x' },
    ];
    for (const body of bad) {
      const res = await api.call('POST', `${BASE}/communities`, { key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
    expect(await balanceOf(key)).toBe(5000);
  });
});

describe('reading, changing and removing communities', () => {
  it("lists the caller's communities newest first with a total", async () => {
    const { key } = await api.newUser({ credits: 1500 });
    const ids: string[] = [];
    for (const name of ['first', 'second', 'third'])
      ids.push(
        (await api.call('POST', `${BASE}/communities`, { key, body: communityBody({ name, type: 'x' }) })).body.id,
      );
    const list = await api.call('GET', `${BASE}/communities`, { key });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(3);
    expect(list.body.items.map((c: { name: string }) => c.name)).toEqual(['third', 'second', 'first']);
    expect((await api.call('GET', `${BASE}/communities/${ids[1]}`, { key })).body.name).toBe('second');
    const page = await api.call('GET', `${BASE}/communities?limit=1&offset=1&sort_order=asc`, { key });
    expect(page.body).toEqual({ items: [expect.objectContaining({ name: 'second' })], total: 3 });
    for (const bad of ['limit=0', 'limit=101', 'offset=-1', 'sort_order=up', 'colour=red']) {
      expect((await api.call('GET', `${BASE}/communities?${bad}`, { key })).status, bad).toBe(400);
    }
  });

  it("hides another user's community behind 404 on every endpoint", async () => {
    const owner = await api.newUser({ credits: 500 });
    const other = await api.newUser({ credits: 500 });
    const { id } = (await api.call('POST', `${BASE}/communities`, { key: owner.key, body: communityBody() })).body;
    const attempts = [
      api.call('GET', `${BASE}/communities/${id}`, { key: other.key }),
      api.call('PUT', `${BASE}/communities/${id}`, { key: other.key, body: { name: 'mine now' } }),
      api.call('POST', `${BASE}/communities/${id}/auto-renew`, { key: other.key, body: { auto_renew: false } }),
      api.call('DELETE', `${BASE}/communities/${id}`, { key: other.key }),
      api.call('POST', `${BASE}/communities/${id}/events`, {
        key: other.key,
        body: {
          events: [
            {
              event_id: 'e1',
              type: 'message',
              user: { id: 'u1', username: 'a' },
              text: 'hi',
              sent_at: new Date().toISOString(),
            },
          ],
        },
      }),
      api.call('GET', `${BASE}/status?community_id=${id}`, { key: other.key }),
      api.call('POST', `${BASE}/sync`, { key: other.key, body: { community_id: id } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await api.call('GET', `${BASE}/communities/${id}`, { key: owner.key })).body.name).toBe('Main chat');
  });

  it('PUT changes only the fields sent; a new type re-evaluates activation', async () => {
    const { key } = await api.newUser({ credits: 500 });
    const created = (await api.call('POST', `${BASE}/communities`, { key, body: communityBody() })).body;

    const renamed = await api.call('PUT', `${BASE}/communities/${created.id}`, {
      key,
      body: { name: 'Renamed', whitelisted_external_role_ids: ['r1'] },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'Renamed',
      project_name: 'Acme',
      whitelisted_external_role_ids: ['r1'],
      status: 'pending_activation',
      activation_token: created.activation_token,
    });

    const sameType = await api.call('PUT', `${BASE}/communities/${created.id}`, { key, body: { type: 'telegram' } });
    expect(sameType.body.activation_token).toBe(created.activation_token);

    const toReddit = await api.call('PUT', `${BASE}/communities/${created.id}`, { key, body: { type: 'reddit' } });
    expect(toReddit.body).toMatchObject({ community_type: 'reddit', status: 'pending_activation' });
    expect(toReddit.body.activation_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(toReddit.body.activation_token).not.toBe(created.activation_token);

    const toDiscord = await api.call('PUT', `${BASE}/communities/${created.id}`, { key, body: { type: 'discord' } });
    expect(toDiscord.body).toMatchObject({ community_type: 'discord', status: 'pending_activation' });
    expect(toDiscord.body.activation_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(toDiscord.body.activation_token).not.toBe(toReddit.body.activation_token);
    // Billing terms are not touched by edits.
    expect(toDiscord.body).toMatchObject({
      next_billing_at: created.next_billing_at,
      credits_charged: 500,
      created_at: created.created_at,
    });

    for (const body of [{}, { name: '' }, { type: 'irc' }, { auto_renew: false }]) {
      expect(
        (await api.call('PUT', `${BASE}/communities/${created.id}`, { key, body })).status,
        JSON.stringify(body),
      ).toBe(400);
    }
  });

  it('switches auto-renew', async () => {
    const { key } = await api.newUser({ credits: 500 });
    const { id } = (await api.call('POST', `${BASE}/communities`, { key, body: communityBody({ type: 'crisp' }) }))
      .body;
    const off = await api.call('POST', `${BASE}/communities/${id}/auto-renew`, { key, body: { auto_renew: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id, auto_renew: false, status: 'pending_activation' });
    expect((await api.call('GET', `${BASE}/communities/${id}`, { key })).body.auto_renew).toBe(false);
    expect((await api.call('POST', `${BASE}/communities/${id}/auto-renew`, { key, body: {} })).status).toBe(400);
  });

  it('DELETE answers 204, then the community is gone everywhere', async () => {
    const { key } = await api.newUser({ credits: 1000 });
    const keep = (await api.call('POST', `${BASE}/communities`, { key, body: communityBody({ name: 'keep' }) })).body;
    const drop = (await api.call('POST', `${BASE}/communities`, { key, body: communityBody({ name: 'drop' }) })).body;
    const res = await api.call('DELETE', `${BASE}/communities/${drop.id}`, { key });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.call('GET', `${BASE}/communities/${drop.id}`, { key })).status).toBe(404);
    expect((await api.call('DELETE', `${BASE}/communities/${drop.id}`, { key })).status).toBe(404);
    expect((await api.call('GET', `${BASE}/communities`, { key })).body).toMatchObject({
      total: 1,
      items: [{ id: keep.id }],
    });
    expect(
      (
        await api.call('POST', `${BASE}/telegram/${drop.moderation_id}`, {
          body: { update_id: 1 },
          headers: { 'x-telegram-bot-api-secret-token': drop.activation_token },
        })
      ).status,
    ).toBe(404);
  });
});
