import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';

const api = await startTestApi();
const BASE = '/integrations/moderation';

/** Reddit, X and Crisp communities here are bound by a custom bridge's activation event (every type starts pending until bound). */
async function provision(type: string, extra: Record<string, unknown> = {}) {
  const { key } = await api.newUser({ credits: 5000 });
  const community = (
    await api.call('POST', `${BASE}/communities`, { key, body: { name: 'Chat', project_name: 'Acme', type, ...extra } })
  ).body;
  if (['reddit', 'x', 'crisp'].includes(type)) {
    const bound = await api.call('POST', `${BASE}/communities/${community.id}/events`, {
      key,
      body: {
        events: [
          {
            event_id: 'bridge-activation',
            type: 'activation',
            user: { id: 'bridge' },
            token: community.activation_token,
            sent_at: '2026-11-22T09:00:00.000Z',
          },
        ],
      },
    });
    expect(bound.body.decisions[0]).toMatchObject({ rule: 'activation', action: 'allow' });
  }
  return { key, community };
}

const minutesAfter = (base: string, minutes: number) => new Date(Date.parse(base) + minutes * 60_000).toISOString();
const T0 = '2026-11-22T10:00:00.000Z';
const VETERAN = { id: 'u-old', username: 'oldtimer', joined_at: '2024-03-01T00:00:00.000Z' };
const SPAMMER = { id: 'u-spam', username: 'cryptohelp' };

let seq = 0;
const message = (user: object, text: string, minutes = 0, eventId = `m${++seq}`) => ({
  event_id: eventId,
  type: 'message',
  user,
  text,
  sent_at: minutesAfter(T0, minutes),
});
const post = (key: string, id: string, events: object[]) =>
  api.call('POST', `${BASE}/communities/${id}/events`, { key, body: { events } });
const status = (key: string, query = '') => api.call('GET', `${BASE}/status${query}`, { key });

describe('POST /communities/{id}/events', () => {
  it('moderates a stream: welcomes, lets legitimate talk through, escalates a spammer, audits every action', async () => {
    const { key, community } = await provision('reddit', {
      whitelisted_usernames: ['founder'],
      should_send_welcome_messages: true,
      welcome_message: 'Welcome {username}! Read the pinned rules.',
      alert_channel_message_template: '🚨 {action} for @{username}',
    });
    const events = [
      { event_id: 'join-1', type: 'member_join', user: SPAMMER, sent_at: T0 },
      message(
        { id: 'u-f', username: 'founder' },
        'Community call Thursday 16:00 UTC: roadmap and grants. DM me for support with anything urgent.',
        1,
        'call',
      ),
      message(VETERAN, 'Docs for the new staking flow: https://docs.acme.org/staking', 2, 'docs'),
      message(VETERAN, 'what do you all think about the price after the listing?', 3, 'price'),
      message(SPAMMER, 'hello, I can help: https://acme-support.help/ticket', 4, 'spam-1'),
      message(SPAMMER, 'Connect your wallet here to fix the sync issue', 5, 'spam-2'),
      message(SPAMMER, 'last chance, claim your airdrop', 6, 'spam-3'),
    ];
    const res = await post(key, community.id, events);
    expect(res.status).toBe(200);
    expect(
      res.body.decisions.map((d: { event_id: string; action: string; rule: string }) => [d.event_id, d.action, d.rule]),
    ).toEqual([
      ['join-1', 'allow', 'member_join'],
      ['call', 'allow', 'whitelisted'],
      ['docs', 'allow', 'none'],
      ['price', 'allow', 'none'],
      ['spam-1', 'warn', 'link'],
      ['spam-2', 'ban', 'scam_phrase'],
      ['spam-3', 'ban', 'scam_phrase'],
    ]);
    expect(res.body.decisions[0].welcome_message).toBe('Welcome cryptohelp! Read the pinned rules.');
    expect(res.body.decisions[4].alert).toBe('🚨 warn for @cryptohelp');
    expect(res.body.decisions[2].alert).toBeUndefined();

    const st = await status(key);
    expect(st.status).toBe(200);
    expect(st.body).toMatchObject({
      community_id: community.id,
      moderation_id: community.moderation_id,
      connection_state: 'connected',
      status: 'connected',
      metrics: {
        messages_scanned: 6,
        messages_flagged: 3,
        actions: { delete: 0, warn: 1, mute: 0, ban: 2 },
        members_joined: 1,
        welcome_messages_sent: 1,
        spam_rate: 0.5,
        last_event_at: minutesAfter(T0, 6),
      },
      last_synced_at: null,
    });
    expect(st.body.audit_logs.map((a: { event_id: string }) => a.event_id)).toEqual(['spam-3', 'spam-2', 'spam-1']);
    expect(st.body.audit_logs[2]).toMatchObject({
      user_id: 'u-spam',
      username: 'cryptohelp',
      action: 'warn',
      rule: 'link',
      message_excerpt: 'hello, I can help: https://acme-support.help/ticket',
      alert_message: '🚨 warn for @cryptohelp',
    });
    expect(st.body.audit_logs[0].at).toMatch(/\.\d{3}Z$/);
  });

  it('neither counts nor acts on a re-delivered event, sequentially or concurrently, and answers it the same way', async () => {
    const { key, community } = await provision('x');
    const batch = [
      message(SPAMMER, 'DM me for support', 0, 'r1'),
      message(SPAMMER, 'send your seed phrase to verify', 1, 'r2'),
      message(VETERAN, 'thanks', 2, 'r3'),
    ];
    const first = await post(key, community.id, batch);
    const again = await post(key, community.id, batch);
    const racing = await Promise.all([
      post(key, community.id, batch),
      post(key, community.id, batch),
      post(key, community.id, [...batch].reverse()),
    ]);
    for (const res of [again, ...racing.slice(0, 2)]) expect(res.body).toEqual(first.body);
    expect(first.body.decisions.map((d: { action: string }) => d.action)).toEqual(['mute', 'ban', 'allow']);

    const st = (await status(key)).body;
    expect(st.metrics).toMatchObject({
      messages_scanned: 3,
      messages_flagged: 2,
      actions: { mute: 1, ban: 1, warn: 0, delete: 0 },
    });
    expect(st.audit_logs).toHaveLength(2);
  });

  it("keeps one member's ladder consistent when different batches about them race", async () => {
    const { key, community } = await provision('reddit');
    const batches = [0, 1, 2, 3].map((i) => [message(SPAMMER, `DM me for support #${i}`, i, `race-${i}`)]);
    const results = await Promise.all(batches.map((events) => post(key, community.id, events)));
    // Each batch saw the offences the others had already stored: one mute, then bans, never two mutes.
    expect(results.map((r) => r.body.decisions[0].action).sort()).toEqual(['ban', 'ban', 'ban', 'mute']);
    expect((await status(key)).body.metrics).toMatchObject({ messages_scanned: 4, actions: { mute: 1, ban: 3 } });
  });

  it('counts a duplicate inside one batch once', async () => {
    const { key, community } = await provision('crisp');
    const dup = message(SPAMMER, 'CLAIM YOUR AIRDROP NOW', 0, 'dup');
    const res = await post(key, community.id, [dup, dup, message(VETERAN, 'ok', 1, 'other')]);
    expect(res.body.decisions).toHaveLength(3);
    expect(res.body.decisions[1]).toEqual(res.body.decisions[0]);
    expect((await status(key)).body.metrics.messages_scanned).toBe(2);
  });

  it('holds a flooding member across batches, with the member remembered between requests', async () => {
    const { key, community } = await provision('reddit');
    const user = { id: 'u-flood', username: 'fast', joined_at: '2025-01-01T00:00:00.000Z' };
    const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();
    const ev = (i: number) => ({
      event_id: `f${i}`,
      type: 'message',
      user,
      text: `message number ${i}`,
      sent_at: at(i),
    });
    const firstFive = await post(key, community.id, [0, 1, 2, 3, 4].map(ev));
    expect(firstFive.body.decisions.every((d: { action: string }) => d.action === 'allow')).toBe(true);
    const sixth = await post(key, community.id, [ev(5)]);
    expect(sixth.body.decisions[0]).toMatchObject({ action: 'warn', rule: 'flood' });
  });

  it('processes a full batch of 100 events from many members', async () => {
    const { key, community } = await provision('reddit');
    const events = Array.from({ length: 100 }, (_, i) =>
      message(
        { id: `bulk-${i % 17}`, username: `user${i % 17}`, joined_at: '2025-01-01T00:00:00.000Z' },
        i % 10 === 0 ? 'dm me for support' : `note ${i}`,
        i,
        `bulk-e${i}`,
      ),
    );
    const res = await post(key, community.id, events);
    expect(res.status).toBe(200);
    expect(res.body.decisions.map((d: { event_id: string }) => d.event_id)).toEqual(events.map((e) => e.event_id));
    const st = (await status(key, '?include_logs=100')).body;
    expect(st.metrics.messages_scanned).toBe(100);
    expect(st.metrics.messages_flagged).toBe(10);
    expect(st.audit_logs).toHaveLength(10);
    expect(
      (
        await post(
          key,
          community.id,
          Array.from({ length: 101 }, (_, i) => message(VETERAN, 'x', i)),
        )
      ).status,
    ).toBe(400);
  });

  it('carries one member through a batch too big for one transaction, climbing the ladder in order', async () => {
    const { key, community } = await provision('reddit');
    const user = { id: 'u-loud', username: 'loud', joined_at: '2025-01-01T00:00:00.000Z' };
    const events = Array.from({ length: 80 }, (_, i) =>
      message(user, `DM me for support, ticket ${i}`, i, `long-${i}`),
    );
    const res = await post(key, community.id, events);
    expect(res.body.decisions.map((d: { action: string }) => d.action)).toEqual(['mute', ...Array(79).fill('ban')]);
    const st = (await status(key, '?include_logs=100')).body;
    expect(st.metrics).toMatchObject({ messages_scanned: 80, messages_flagged: 80, actions: { mute: 1, ban: 79 } });
    expect(st.audit_logs.map((a: { event_id: string }) => a.event_id)).toEqual(events.map((e) => e.event_id).reverse());
  });

  it('rejects malformed events with 400', async () => {
    const { key, community } = await provision('reddit');
    const bad = [
      [],
      [{ event_id: 'a', type: 'shout', user: { id: '1' }, sent_at: T0 }],
      [{ event_id: 'a', type: 'message', user: { id: '1' }, text: 'x', sent_at: 'yesterday' }],
      [{ event_id: 'a', type: 'message', user: {}, text: 'x', sent_at: T0 }],
      [{ event_id: 'a', type: 'message', user: { id: '1' }, text: 'x', sent_at: T0, extra: true }],
    ];
    for (const events of bad) expect((await post(key, community.id, events)).status, JSON.stringify(events)).toBe(400);
  });
});

describe('activation', () => {
  it('leaves a pending community unmoderated until an activation event carries its token', async () => {
    const { key, community } = await provision('discord');
    const before = await post(key, community.id, [message(SPAMMER, 'DM me for support', 0, 'pre')]);
    expect(before.body.decisions[0]).toMatchObject({ action: 'allow', rule: 'not_monitored' });

    const wrong = await post(key, community.id, [
      { event_id: 'act-0', type: 'activation', user: { id: 'bot' }, token: 'nope', sent_at: T0 },
    ]);
    expect(wrong.body.decisions[0]).toMatchObject({
      action: 'allow',
      rule: 'activation',
      reason: 'The activation token does not match',
    });
    expect((await api.call('GET', `${BASE}/communities/${community.id}`, { key })).body.status).toBe(
      'pending_activation',
    );

    const right = await post(key, community.id, [
      { event_id: 'act-1', type: 'activation', user: { id: 'bot' }, token: community.activation_token, sent_at: T0 },
      message(SPAMMER, 'DM me for support', 1, 'post'),
    ]);
    expect(right.body.decisions.map((d: { action: string }) => d.action)).toEqual(['allow', 'mute']);
    const redelivered = await post(key, community.id, [
      { event_id: 'act-1', type: 'activation', user: { id: 'bot' }, token: community.activation_token, sent_at: T0 },
    ]);
    expect(redelivered.body.decisions[0]).toEqual(right.body.decisions[0]);
    expect((await api.call('GET', `${BASE}/communities/${community.id}`, { key })).body.status).toBe('connected');
    const st = (await status(key)).body;
    expect(st).toMatchObject({ connection_state: 'connected', status: 'connected' });
    expect(st.metrics.messages_scanned).toBe(2);
  });
});

describe('Telegram webhook', () => {
  const update = (updateId: number, message: object) => ({
    update_id: updateId,
    message: {
      message_id: updateId,
      date: 1_795_000_000 + updateId,
      chat: { id: -100, type: 'supergroup' },
      ...message,
    },
  });

  it('checks the secret header, activates with /activate <token>, then moderates updates once each', async () => {
    const { key, community } = await provision('telegram', { should_send_welcome_messages: true });
    const url = `${BASE}/telegram/${community.moderation_id}`;
    const secret = { 'x-telegram-bot-api-secret-token': community.activation_token };

    for (const headers of [{}, { 'x-telegram-bot-api-secret-token': 'wrong' }] as Record<string, string>[]) {
      const res = await api.call('POST', url, {
        body: update(1, { from: { id: 7, username: 'admin' }, text: 'hi' }),
        headers,
      });
      expect(res.status).toBe(404);
    }
    expect(
      (await api.call('POST', `${BASE}/telegram/mod_unknown`, { body: update(1, {}), headers: secret })).status,
    ).toBe(404);

    const activate = await api.call('POST', url, {
      body: update(10, { from: { id: 7, username: 'admin' }, text: `/activate ${community.activation_token}` }),
      headers: secret,
    });
    expect(activate.status).toBe(200);
    expect(activate.body.decisions).toEqual([
      expect.objectContaining({
        event_id: 'tg-10',
        action: 'allow',
        rule: 'activation',
        reason: expect.stringContaining('connected'),
      }),
    ]);
    expect((await api.call('GET', `${BASE}/communities/${community.id}`, { key })).body.status).toBe('connected');

    const join = await api.call('POST', url, {
      body: update(11, { from: { id: 8 }, new_chat_members: [{ id: 8, username: 'newbie', is_bot: false }] }),
      headers: secret,
    });
    expect(join.body.decisions[0]).toMatchObject({
      event_id: 'tg-11-join-8',
      rule: 'member_join',
      welcome_message: expect.stringContaining('newbie'),
    });

    const spam = update(12, { from: { id: 8, username: 'newbie' }, text: 'free airdrop, claim it at t.me/+xyzInvite' });
    const first = await api.call('POST', url, { body: spam, headers: secret });
    const redelivered = await api.call('POST', url, { body: spam, headers: secret });
    expect(first.body.decisions[0]).toMatchObject({ event_id: 'tg-12', action: 'mute', rule: 'scam_phrase' });
    expect(redelivered.body).toEqual(first.body);
    expect(
      (await api.call('POST', url, { body: { update_id: 13, edited_message: {} }, headers: secret })).body,
    ).toEqual({ decisions: [] });

    const st = (await status(key)).body;
    expect(st.metrics).toMatchObject({
      messages_scanned: 1,
      messages_flagged: 1,
      members_joined: 1,
      welcome_messages_sent: 1,
    });
  });
});

describe('GET /status and POST /sync', () => {
  it('answers 404 for a caller without communities', async () => {
    const { key } = await api.newUser();
    expect((await status(key)).status).toBe(404);
  });

  it('defaults to the newest community, bounds include_logs, and stamps last_synced_at on sync', async () => {
    const { key, community: older } = await provision('reddit');
    const newer = (
      await api.call('POST', `${BASE}/communities`, { key, body: { name: 'Newer', project_name: 'Acme', type: 'x' } })
    ).body;
    expect((await status(key)).body.community_id).toBe(newer.id);
    expect((await status(key, `?community_id=${older.id}`)).body.community_id).toBe(older.id);

    await post(
      key,
      older.id,
      Array.from({ length: 30 }, (_, i) =>
        message({ id: `s${i}`, username: `s${i}` }, 'DM me for support', i, `sp${i}`),
      ),
    );
    expect((await status(key, `?community_id=${older.id}`)).body.audit_logs).toHaveLength(25);
    expect((await status(key, `?community_id=${older.id}&include_logs=0`)).body.audit_logs).toEqual([]);
    expect((await status(key, `?community_id=${older.id}&include_logs=100`)).body.audit_logs).toHaveLength(30);
    for (const bad of ['-1', '101', 'ten', '2.5']) {
      const res = await status(key, `?include_logs=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
    expect((await status(key, '?community_id=not-a-uuid')).status).toBe(400);

    const synced = await api.call('POST', `${BASE}/sync`, { key, body: { community_id: older.id } });
    expect(synced.status).toBe(200);
    expect(synced.body.metrics.messages_scanned).toBe(30);
    expect(Date.parse(synced.body.last_synced_at)).toBeGreaterThan(Date.now() - 60_000);
    expect((await status(key, `?community_id=${older.id}`)).body.last_synced_at).toBe(synced.body.last_synced_at);
    expect((await api.call('POST', `${BASE}/sync`, { key, body: {} })).status).toBe(400);
  });
});
