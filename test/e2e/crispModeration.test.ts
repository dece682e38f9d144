/**
 * The operator's Crisp plugin end to end: hooks posted, signed, to the shared endpoint as Crisp
 * would, the real Crisp adapter pointed at the recording stand-in, and the exact calls asserted.
 */
import { randomUUID } from 'node:crypto';
import { DELIVERY_CORE } from '#shared/domain/moderation/deliveryCore';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { setCommunityFields } from '#test/support/communityRecord';
import { startTestApi } from '#test/support/api';
import { useOwnTable } from '#test/support/ownTable';
import { signCrispHookRequest, startCrispStandIn, type CrispCallRecord } from '#bin/standIns/crispStandIn';
import { liftEndedCrispMutes } from '#shared/platforms/crisp/muteEnds';
import { MUTE_SECONDS } from '#shared/platforms/contract';
import { MAX_HOOK_SKEW_SECONDS } from '#shared/platforms/crisp/hookSignature';
import { crispDeleteMessage } from '#shared/platforms/crisp/calls';
import { runDelivery, scheduleDelivery } from '#shared/domain/moderation/platformCallRunner';
import { RetryLater } from '#shared/platforms/result';
import { MAX_TRANSIENT_ATTEMPTS } from '#shared/domain/moderation/platformCallRunner';

const IDENTIFIER = 'crisp-plugin-identifier';
const KEY = 'crisp-plugin-key';
const SECRET = 'crisp-hook-secret';
const crisp = await startCrispStandIn(IDENTIFIER, KEY);
const ENV = {
  CRISP_PLUGIN_ID: 'plugin-urn',
  CRISP_TOKEN_IDENTIFIER: IDENTIFIER,
  CRISP_TOKEN_KEY: KEY,
  CRISP_HOOK_SECRET: SECRET,
  CRISP_API_BASE: crisp.apiBase,
};
const saved = Object.fromEntries(Object.keys(ENV).map((name) => [name, process.env[name]]));
Object.assign(process.env, ENV);
// The Crisp mute sweep it runs lifts every mute of its table that has ended: other files' too on the shared table.
await useOwnTable('outreach-crisp');
const api = await startTestApi();
afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await crisp.close();
});

const BASE = '/integrations/moderation';
const SPAM = 'Connect your wallet to claim the bonus';
let fingerprint = 163_400_000_000_000;
const newWebsite = () => randomUUID();
const newSession = () => `session_${randomUUID()}`;

const hook = (websiteId: string, event: string, data: Record<string, unknown>) => ({
  website_id: websiteId,
  event,
  data: { website_id: websiteId, ...data } as Record<string, unknown>,
  timestamp: Date.now(),
});
const visitorSays = (websiteId: string, sessionId: string, content: string, nickname = 'Visitor 12') => {
  const fp = ++fingerprint;
  return {
    fp,
    body: hook(websiteId, 'message:send', {
      session_id: sessionId,
      type: 'text',
      from: 'user',
      origin: 'chat',
      content,
      fingerprint: fp,
      user: { nickname, user_id: sessionId },
      timestamp: Date.now(),
    }),
  };
};
const operatorSays = (websiteId: string, sessionId: string, content: string) =>
  hook(websiteId, 'message:received', {
    session_id: sessionId,
    type: 'text',
    from: 'operator',
    origin: 'chat',
    content,
    fingerprint: ++fingerprint,
    user: { nickname: 'Ada', user_id: 'operator-1' },
    timestamp: Date.now(),
  });

const post = (body: object, secret = SECRET, timestampMs?: number) =>
  api.call('POST', `${BASE}/crisp`, signCrispHookRequest(secret, body, timestampMs));
const settle = () => api.ports.queue.drained();
const INVALID_TOKEN =
  'This activation token is not valid for a Crisp community (or was used already: its owner can issue a fresh one).';
const status = async (key: string, id: string) =>
  (await api.call('GET', `${BASE}/status?community_id=${id}`, { key })).body;

const conversation = (websiteId: string, sessionId: string) => `/website/${websiteId}/conversation/${sessionId}`;
const note = (websiteId: string, sessionId: string, content: string): CrispCallRecord => ({
  method: 'POST',
  path: `${conversation(websiteId, sessionId)}/message`,
  body: { type: 'note', from: 'operator', origin: 'chat', content },
});
const text = (websiteId: string, sessionId: string, content: string): CrispCallRecord => ({
  method: 'POST',
  path: `${conversation(websiteId, sessionId)}/message`,
  body: { type: 'text', from: 'operator', origin: 'chat', content },
});
const remove = (websiteId: string, sessionId: string, fp: number): CrispCallRecord => ({
  method: 'DELETE',
  path: `${conversation(websiteId, sessionId)}/message/${fp}`,
  body: undefined,
});
const block = (websiteId: string, sessionId: string, blocked: boolean): CrispCallRecord => ({
  method: 'PATCH',
  path: `${conversation(websiteId, sessionId)}/block`,
  body: { blocked },
});
/** Deliveries run in parallel: calls compared as a set, the order inside one delivery checked apart. */
const sorted = (calls: CrispCallRecord[]) =>
  [...calls].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

async function newCommunity(options: { welcome?: string; whitelisted?: string[] } = {}) {
  const { key } = await api.newUser({ credits: 5000 });
  const community = (
    await api.call('POST', `${BASE}/communities`, {
      key,
      body: {
        name: 'Acme support',
        project_name: 'Acme',
        type: 'crisp',
        whitelisted_usernames: options.whitelisted ?? [],
        should_send_welcome_messages: !!options.welcome,
        welcome_message: options.welcome ?? '',
        alert_channel_message_template: '🚨 {action}: {username}',
      },
    })
  ).body;
  return { key, community };
}

async function activatedWebsite(options: { welcome?: string; whitelisted?: string[] } = {}) {
  const { key, community } = await newCommunity(options);
  const websiteId = newWebsite();
  expect((await post(operatorSays(websiteId, newSession(), `/activate ${community.activation_token}`))).status).toBe(
    200,
  );
  await settle();
  crisp.reset();
  return { key, community, websiteId };
}

/** A visitor's two scams in a row: the first mutes (blocks) the conversation, the second bans it. */
async function mutedThenBanned(websiteId: string): Promise<string> {
  const session = newSession();
  await post(visitorSays(websiteId, session, SPAM).body);
  await settle();
  await post(visitorSays(websiteId, session, 'claim your airdrop now').body);
  await settle();
  return session;
}

beforeEach(() => crisp.reset());

describe('the Crisp hook endpoint', () => {
  it('answers 401 to a bad, missing or stale signature before reading the body, and acts on nothing', async () => {
    const { websiteId } = await activatedWebsite();
    const { body } = visitorSays(websiteId, newSession(), SPAM);
    const signed = signCrispHookRequest(SECRET, body);
    const attempts = [
      post(body, 'not-the-secret'),
      api.call('POST', `${BASE}/crisp`, { body }),
      api.call('POST', `${BASE}/crisp`, { body: { ...body, website_id: newWebsite() }, headers: signed.headers }),
      post(body, SECRET, Date.now() - (MAX_HOOK_SKEW_SECONDS + 60) * 1000),
      api.call('POST', `${BASE}/crisp`, { rawBody: '{not json', headers: signed.headers }),
      // A malformed hook with a wrong signature is a 401, not a 400: nothing is read before the check.
      api.call('POST', `${BASE}/crisp`, { body: { website_id: 7 }, headers: signed.headers }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    }
    await settle();
    expect(crisp.calls).toEqual([]);
  });

  it('a body nested past any hook is refused before it is parsed or serialised again (no stack to exhaust)', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const headers = signCrispHookRequest(SECRET, JSON.parse('['.repeat(60) + ']'.repeat(60))).headers;
    const res = await api.call('POST', `${BASE}/crisp`, { rawBody: deep, headers });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });

  it('a signed but malformed hook is a 400 with the contract body; a signed event of another kind is answered 200 and ignored', async () => {
    const res = await post({ website_id: 7, event: 'message:send', data: {} });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    const other = await post(
      hook(newWebsite(), 'session:set_email', { session_id: newSession(), email: 'a@example.com' }),
    );
    expect(other.status).toBe(200);
    expect(other.body).toEqual({ ok: true });
    await settle();
    expect(crisp.calls).toEqual([]);
  });
});

describe('binding a website', () => {
  it("an operator's /activate binds the website and connects the community; a visitor's binds nothing", async () => {
    const { key, community } = await newCommunity();
    const websiteId = newWebsite();
    const visitorSession = newSession();
    // A visitor who somehow has the token: just a message in a website nobody moderates.
    await post(visitorSays(websiteId, visitorSession, `/activate ${community.activation_token}`).body);
    await settle();
    expect(crisp.calls).toEqual([]);
    expect((await status(key, community.id)).status).toBe('pending_activation');

    const operatorSession = newSession();
    expect(
      (await post(operatorSays(websiteId, operatorSession, `/activate ${community.activation_token}`))).status,
    ).toBe(200);
    await settle();
    expect(crisp.calls).toEqual([
      note(websiteId, operatorSession, 'Moderation is on for this website: visitor messages are checked from now on.'),
    ]);
    const st = await status(key, community.id);
    expect(st.status).toBe('connected');
    expect(st.platform).toMatchObject({ chat_id: websiteId, alert_chat_id: null, configured: true });
    expect(st.platform.unsupported.length).toBeGreaterThan(0);
  });

  it('an unknown token is answered with a private note and binds nothing', async () => {
    const websiteId = newWebsite();
    const session = newSession();
    await post(operatorSays(websiteId, session, '/activate not-a-real-token'));
    await settle();
    expect(crisp.calls).toEqual([note(websiteId, session, INVALID_TOKEN)]);
  });

  it('a website sending bad tokens over and over gets one note, then none for ten minutes; a right token is still answered', async () => {
    const websiteId = newWebsite();
    const sessions = [newSession(), newSession(), newSession()];
    // Sent at once and in turn: each note would spend the plugin's daily quota that every customer shares.
    await Promise.all(sessions.slice(0, 2).map((s) => post(operatorSays(websiteId, s, '/activate guess-1'))));
    await post(operatorSays(websiteId, sessions[2], '/activate guess-2'));
    await settle();
    expect(crisp.calls).toHaveLength(1);
    expect(sessions.map((s) => note(websiteId, s, INVALID_TOKEN))).toContainEqual(crisp.calls[0]);
    // Another website is answered as before.
    const elsewhere = newWebsite();
    const session = newSession();
    await post(operatorSays(elsewhere, session, '/activate guess-3'));
    await settle();
    expect(crisp.calls.at(-1)).toEqual(note(elsewhere, session, INVALID_TOKEN));
    // The operator who mistyped sends the right token: bound and told so.
    const { key, community } = await newCommunity();
    crisp.reset();
    const right = newSession();
    await post(operatorSays(websiteId, right, `/activate ${community.activation_token}`));
    await settle();
    expect(crisp.calls).toEqual([
      note(websiteId, right, 'Moderation is on for this website: visitor messages are checked from now on.'),
    ]);
    expect((await status(key, community.id)).status).toBe('connected');
  });

  it('a website bound to one community is refused to another, with a clear note; the first keeps it', async () => {
    const first = await activatedWebsite();
    const second = await newCommunity();
    const session = newSession();
    await post(operatorSays(first.websiteId, session, `/activate ${second.community.activation_token}`));
    await settle();
    expect(crisp.calls).toEqual([
      note(
        first.websiteId,
        session,
        'This Crisp website is already moderated by another community, and stays with it: that community must be deleted before this website can be activated for another one.',
      ),
    ]);
    expect((await status(second.key, second.community.id)).status).toBe('pending_activation');
    crisp.reset();
    // Messages there are still the first community's.
    const visitor = newSession();
    const { fp, body } = visitorSays(first.websiteId, visitor, SPAM);
    await post(body);
    await settle();
    expect(crisp.calls).toEqual(expect.arrayContaining([remove(first.websiteId, visitor, fp)]));
    expect((await status(first.key, first.community.id)).metrics.messages_scanned).toBe(1);
    expect((await status(second.key, second.community.id)).metrics.messages_scanned).toBe(0);
  });
});

describe('one community, several websites', () => {
  it('its token sent in three websites at once leaves it bound to one: the others are free and not moderated', async () => {
    const { key, community } = await newCommunity();
    const websites = [newWebsite(), newWebsite(), newWebsite()];
    await Promise.all(
      websites.map((w) => post(operatorSays(w, newSession(), `/activate ${community.activation_token}`))),
    );
    await settle();
    const bound = (await status(key, community.id)).platform.chat_id;
    expect(websites).toContain(bound);
    crisp.reset();
    for (const w of websites) await post(visitorSays(w, newSession(), SPAM).body);
    await settle();
    for (const w of websites) expect([w, crisp.calls.some((c) => c.path.includes(w))]).toEqual([w, w === bound]);
    // The others are free: another community takes one.
    const other = await newCommunity();
    const free = websites.find((w) => w !== bound) as string;
    await post(operatorSays(free, newSession(), `/activate ${other.community.activation_token}`));
    await settle();
    expect((await status(other.key, other.community.id)).status).toBe('connected');
  });
});

describe('a token binds once', () => {
  it("a visitor who read the operator's /activate cannot move the community to their own website", async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const theirs = newWebsite();
    const session = newSession();
    await post(operatorSays(theirs, session, `/activate ${community.activation_token}`));
    await settle();
    expect(crisp.calls).toEqual([note(theirs, session, INVALID_TOKEN)]);
    expect((await status(key, community.id)).platform.chat_id).toBe(websiteId);
    // The operator repeating it on the website it bound is told it is on, and nothing moves.
    crisp.reset();
    const again = newSession();
    await post(operatorSays(websiteId, again, `/activate ${community.activation_token}`));
    await settle();
    expect(crisp.calls.map((c) => c.body)).toEqual([expect.objectContaining({ type: 'note' })]);
    expect(crisp.calls[0].body).not.toEqual(note(websiteId, again, INVALID_TOKEN).body);
    expect((await status(key, community.id)).platform.chat_id).toBe(websiteId);
  });
});

describe('a community that stops being a Crisp community', () => {
  it('lets go of its website: bound again on its new platform it sends nothing to Crisp, and the website is free', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const changed = await api.call('PUT', `${BASE}/communities/${community.id}`, { key, body: { type: 'reddit' } });
    expect(changed.status).toBe(200);
    expect(changed.body.status).toBe('pending_activation');
    // Bound on its new platform (as Reddit's /activate would do it): connected, and paying, again.
    await setCommunityFields((await api.call('GET', '/users/me', { key })).body.id, community.id, {
      activatedAt: new Date().toISOString(),
    });
    expect((await status(key, community.id)).status).toBe('connected');
    // A visitor's spam on the website it no longer moderates: no call to Crisp, nothing counted.
    const { body } = visitorSays(websiteId, newSession(), SPAM);
    expect((await post(body)).status).toBe(200);
    await settle();
    expect(crisp.calls).toEqual([]);
    expect((await status(key, community.id)).metrics.messages_scanned).toBe(0);
    // The website can be activated for another community.
    const other = await newCommunity();
    await post(operatorSays(websiteId, newSession(), `/activate ${other.community.activation_token}`));
    await settle();
    expect((await status(other.key, other.community.id)).status).toBe('connected');
  });

  it('a binding left from a type changed before is not acted on', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    // The type changed (and the community connected on its new platform) while the website's binding stayed.
    await setCommunityFields((await api.call('GET', '/users/me', { key })).body.id, community.id, { type: 'reddit' });
    expect((await status(key, community.id)).status).toBe('connected');
    expect((await post(visitorSays(websiteId, newSession(), SPAM).body)).status).toBe(200);
    await settle();
    expect(crisp.calls).toEqual([]);
    expect((await status(key, community.id)).metrics.messages_scanned).toBe(0);
  });
});

describe('visitor messages', () => {
  it('spam: the message is deleted and the conversation blocked, in that order, with a private note as the alert; the audit log says delivered', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const session = newSession();
    const { fp, body } = visitorSays(websiteId, session, SPAM, 'Free Tokens');
    expect((await post(body)).status).toBe(200);
    await settle();
    expect(sorted(crisp.calls)).toEqual(
      sorted([
        remove(websiteId, session, fp),
        block(websiteId, session, true),
        note(websiteId, session, '🚨 mute: Free Tokens'),
      ]),
    );
    expect(crisp.calls.filter((c) => c.method !== 'POST').map((c) => c.method)).toEqual(['DELETE', 'PATCH']);
    expect(crisp.isBlocked(websiteId, session)).toBe(true);
    const st = await status(key, community.id);
    expect(st.audit_logs[0]).toMatchObject({
      event_id: `${websiteId}:${session}:${fp}`,
      user_id: session,
      username: 'Free Tokens',
      action: 'mute',
      rule: 'scam_phrase',
      delivery: { status: 'delivered', error: null },
      undo: null,
    });
    expect(st.metrics).toMatchObject({ messages_scanned: 1, messages_flagged: 1, actions: { mute: 1 } });
  });

  it('a minor breach deletes, a link from a new visitor warns with an operator text; a clean message and a whitelisted one cause no call', async () => {
    const { key, community, websiteId } = await activatedWebsite({ whitelisted: ['Acme Staff'] });
    const session = newSession();
    const shout = visitorSays(websiteId, session, 'WHY IS NOTHING WORKING ON THIS PAGE, SUBSCRIBE');
    await post(shout.body);
    await settle();
    expect(sorted(crisp.calls)).toEqual(
      sorted([remove(websiteId, session, shout.fp), note(websiteId, session, '🚨 delete: Visitor 12')]),
    );
    crisp.reset();

    const other = newSession();
    await post(visitorSays(websiteId, other, 'see https://cheap-pills.example/buy').body);
    await settle();
    expect(sorted(crisp.calls)).toEqual(
      sorted([
        text(websiteId, other, "⚠️ URL from a new member. Please keep to this website's chat rules."),
        note(websiteId, other, '🚨 warn: Visitor 12'),
      ]),
    );
    crisp.reset();

    await post(visitorSays(websiteId, newSession(), 'Hello, how do I reset my password?').body);
    await post(visitorSays(websiteId, newSession(), SPAM, 'Acme Staff').body);
    await settle();
    expect(crisp.calls).toEqual([]);
    expect((await status(key, community.id)).metrics).toMatchObject({ messages_scanned: 4, messages_flagged: 2 });
  });

  it("the welcome message goes out on a session's first visitor message only", async () => {
    const { key, community, websiteId } = await activatedWebsite({
      welcome: 'Hi {username}, an operator will be with you shortly.',
    });
    const session = newSession();
    await post(visitorSays(websiteId, session, 'Hello there', 'Sam').body);
    await settle();
    await post(visitorSays(websiteId, session, 'Are you there?', 'Sam').body);
    await settle();
    expect(crisp.calls).toEqual([text(websiteId, session, 'Hi Sam, an operator will be with you shortly.')]);
    expect((await status(key, community.id)).metrics).toMatchObject({
      members_joined: 1,
      welcome_messages_sent: 1,
      messages_scanned: 2,
    });
  });

  it('a re-delivered hook is acted on once', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const session = newSession();
    const { fp, body } = visitorSays(websiteId, session, 'send your seed phrase to verify your account');
    await post(body);
    await settle();
    await Promise.all([post(body), post(body)]);
    await settle();
    expect(sorted(crisp.calls)).toEqual(
      sorted([
        remove(websiteId, session, fp),
        block(websiteId, session, true),
        note(websiteId, session, '🚨 mute: Visitor 12'),
      ]),
    );
    expect((await status(key, community.id)).metrics).toMatchObject({ messages_scanned: 1, actions: { mute: 1 } });
  });

  it('observe mode: decisions and audit logs, no Crisp call', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    await api.call('PUT', `${BASE}/communities/${community.id}/rules`, { key, body: { mode: 'observe' } });
    await post(visitorSays(websiteId, newSession(), SPAM).body);
    await settle();
    expect(crisp.calls).toEqual([]);
    expect((await status(key, community.id)).audit_logs[0]).toMatchObject({
      action: 'mute',
      delivery: { status: 'observe', error: null },
    });
  });
});

describe('blocks: undo and the end of a mute', () => {
  it('undo unblocks the conversation of a mute or a ban, once; a delete cannot be undone', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const session = await mutedThenBanned(websiteId);
    const shouter = newSession();
    await post(visitorSays(websiteId, shouter, 'WHY IS NOTHING WORKING ON THIS PAGE, SUBSCRIBE').body);
    await settle();
    const logs = (await status(key, community.id)).audit_logs;
    expect(logs.map((l: { action: string }) => l.action)).toEqual(['delete', 'ban', 'mute']);
    crisp.reset();

    const undoBan = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${logs[1].id}/undo`, {
      key,
    });
    expect(undoBan.status).toBe(200);
    expect(undoBan.body).toMatchObject({ audit_id: logs[1].id, action: 'ban', delivery: 'delivered', error: null });
    expect(crisp.calls).toEqual([block(websiteId, session, false)]);
    expect(crisp.isBlocked(websiteId, session)).toBe(false);
    const again = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${logs[1].id}/undo`, { key });
    expect(again.status).toBe(422);
    const undoDelete = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${logs[0].id}/undo`, {
      key,
    });
    expect(undoDelete.status).toBe(422);
    expect(crisp.calls).toHaveLength(1);
    expect((await status(key, community.id)).audit_logs[1].undo).toMatchObject({ status: 'delivered', error: null });
  });

  it('undo unblocks the conversation in the website where it was blocked, after the community moved to another website', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const session = newSession();
    await post(visitorSays(websiteId, session, SPAM).body);
    await settle();
    const moved = newWebsite();
    const fresh = await api.call('POST', `${BASE}/communities/${community.id}/activation-token`, { key });
    await post(operatorSays(moved, newSession(), `/activate ${fresh.body.activation_token}`));
    await settle();
    expect((await status(key, community.id)).platform.chat_id).toBe(moved);
    crisp.reset();
    const mute = (await status(key, community.id)).audit_logs.find((l: { action: string }) => l.action === 'mute');
    const undo = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${mute.id}/undo`, { key });
    expect(undo.body).toMatchObject({ action: 'mute', delivery: 'delivered' });
    expect(crisp.calls).toEqual([block(websiteId, session, false)]);
    expect(crisp.isBlocked(websiteId, session)).toBe(false);
  });

  it('a ban applied while enforcing is lifted by its undo after the community switched to observe; an observed one sends nothing', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const session = await mutedThenBanned(websiteId);
    await api.call('PUT', `${BASE}/communities/${community.id}/rules`, { key, body: { mode: 'observe' } });
    const observed = newSession();
    await post(visitorSays(websiteId, observed, SPAM).body);
    await settle();
    crisp.reset();
    const logs = (await status(key, community.id)).audit_logs;
    const ban = logs.find((l: { action: string }) => l.action === 'ban');
    const undo = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${ban.id}/undo`, { key });
    expect(undo.body).toMatchObject({ action: 'ban', delivery: 'delivered' });
    expect(crisp.calls).toEqual([block(websiteId, session, false)]);
    expect(crisp.isBlocked(websiteId, session)).toBe(false);
    crisp.reset();
    const observedMute = logs.find((l: { user_id: string }) => l.user_id === observed);
    expect(observedMute).toMatchObject({ action: 'mute', delivery: { status: 'observe' } });
    await api.call('PUT', `${BASE}/communities/${community.id}/rules`, { key, body: { mode: 'enforce' } });
    const undoObserved = await api.call(
      'POST',
      `${BASE}/communities/${community.id}/audit-logs/${observedMute.id}/undo`,
      { key },
    );
    expect(undoObserved.body).toMatchObject({ action: 'mute', delivery: 'observe' });
    expect(crisp.calls).toEqual([]);
  });

  it('a ban made on Crisp is lifted on Crisp by its undo after the community changed type', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const session = await mutedThenBanned(websiteId);
    const ban = (await status(key, community.id)).audit_logs.find((l: { action: string }) => l.action === 'ban');
    expect(
      (await api.call('PUT', `${BASE}/communities/${community.id}`, { key, body: { type: 'telegram' } })).status,
    ).toBe(200);
    crisp.reset();
    const undo = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${ban.id}/undo`, { key });
    expect(undo.status).toBe(200);
    expect(undo.body).toMatchObject({ action: 'ban', delivery: 'delivered' });
    expect(crisp.calls).toEqual([block(websiteId, session, false)]);
    expect(crisp.isBlocked(websiteId, session)).toBe(false);
  });

  it('an undo Crisp cannot take at once (a 503) answers pending, not a 500, and is made again through the queue', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const session = newSession();
    await post(visitorSays(websiteId, session, SPAM).body);
    await settle();
    crisp.reset();
    const mute = (await status(key, community.id)).audit_logs.find((l: { action: string }) => l.action === 'mute');
    crisp.failNext(/\/block$/);
    const undo = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${mute.id}/undo`, { key });
    expect(undo.status).toBe(200);
    expect(undo.body).toMatchObject({ action: 'mute', delivery: 'pending', error: null });
    await settle();
    expect(crisp.calls).toEqual([block(websiteId, session, false), block(websiteId, session, false)]);
    expect(crisp.isBlocked(websiteId, session)).toBe(false);
    expect(
      (await status(key, community.id)).audit_logs.find((l: { id: string }) => l.id === mute.id).undo,
    ).toMatchObject({ status: 'delivered' });
  });

  it('a mute ends MUTE_SECONDS after its block went through: the minute sweep unblocks it once; a ban is never lifted', async () => {
    const { websiteId } = await activatedWebsite();
    const muted = newSession();
    const appliedFrom = Date.now();
    await post(visitorSays(websiteId, muted, SPAM).body);
    await settle();
    const appliedBy = Date.now();
    const banned = await mutedThenBanned(websiteId);
    expect(crisp.isBlocked(websiteId, muted) && crisp.isBlocked(websiteId, banned)).toBe(true);
    crisp.reset();

    const ours = (calls: CrispCallRecord[]) => calls.filter((c) => c.path.includes(websiteId));
    await liftEndedCrispMutes(DELIVERY_CORE, new Date(appliedFrom + MUTE_SECONDS * 1000 - 60_000));
    await settle();
    expect(ours(crisp.calls)).toEqual([]);
    await liftEndedCrispMutes(DELIVERY_CORE, new Date(appliedBy + MUTE_SECONDS * 1000 + 1));
    await liftEndedCrispMutes(DELIVERY_CORE, new Date(appliedBy + MUTE_SECONDS * 1000 + 60_000));
    await settle();
    expect(ours(crisp.calls)).toEqual([block(websiteId, muted, false)]);
    await liftEndedCrispMutes(DELIVERY_CORE, new Date(appliedBy + 30 * 24 * 60 * 60 * 1000));
    await settle();
    expect(ours(crisp.calls)).toEqual([block(websiteId, muted, false)]);
    expect(crisp.isBlocked(websiteId, banned)).toBe(true);
  });

  it("a ban stays for good when the earlier mute's block lands after it: the mute's end lifts nothing", async () => {
    const { websiteId } = await activatedWebsite();
    const session = newSession();
    // The mute's block waits out a limit while the visitor's next scam is banned (its block goes through first).
    crisp.limitNext(/\/block$/, 420, 1);
    await post(visitorSays(websiteId, session, SPAM).body);
    for (let i = 0; i < 100 && !crisp.calls.some((c) => c.method === 'PATCH'); i++)
      await new Promise((r) => setTimeout(r, 20));
    await post(visitorSays(websiteId, session, 'claim your airdrop now').body);
    await settle();
    expect(crisp.calls.filter((c) => c.method === 'PATCH')).toEqual([
      block(websiteId, session, true),
      block(websiteId, session, true),
      block(websiteId, session, true),
    ]);
    crisp.reset();
    await liftEndedCrispMutes(DELIVERY_CORE, new Date(Date.now() + MUTE_SECONDS * 1000 + 60_000));
    await settle();
    expect(crisp.calls.filter((c) => c.path.includes(websiteId))).toEqual([]);
    expect(crisp.isBlocked(websiteId, session)).toBe(true);
  });

  it('undoing a mute leaves a later ban of the conversation in place (refused, with the reason); undoing the ban lifts it', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const session = await mutedThenBanned(websiteId);
    const logs = (await status(key, community.id)).audit_logs;
    const [ban, mute] = ['ban', 'mute'].map((a) => logs.find((l: { action: string }) => l.action === a));
    crisp.reset();
    const undoMute = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${mute.id}/undo`, { key });
    expect(undoMute.status).toBe(200);
    expect(undoMute.body).toMatchObject({ action: 'mute', delivery: 'failed' });
    expect(undoMute.body.error).toContain('banned since');
    expect(crisp.calls).toEqual([]);
    expect(crisp.isBlocked(websiteId, session)).toBe(true);
    const undoBan = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${ban.id}/undo`, { key });
    expect(undoBan.body).toMatchObject({ action: 'ban', delivery: 'delivered' });
    expect(crisp.calls).toEqual([block(websiteId, session, false)]);
    expect(crisp.isBlocked(websiteId, session)).toBe(false);
  });

  it('a mute whose hour was over before it could be applied is not applied: the message is still deleted, the conversation stays open', async () => {
    const { websiteId } = await activatedWebsite();
    const session = newSession();
    const { fp, body } = visitorSays(websiteId, session, SPAM);
    body.data.timestamp = Date.now() - (MUTE_SECONDS + 60) * 1000;
    await post(body);
    await settle();
    expect(crisp.calls.filter((c) => c.method !== 'POST')).toEqual([remove(websiteId, session, fp)]);
    expect(crisp.isBlocked(websiteId, session)).toBe(false);
    await liftEndedCrispMutes(DELIVERY_CORE, new Date(Date.now() + 2 * MUTE_SECONDS * 1000));
    await settle();
    expect(crisp.calls.filter((c) => c.method === 'PATCH' && c.path.includes(websiteId))).toEqual([]);
  });
  it('an undo while the action itself still waits out a limit is refused (it would be applied again after): once applied, the undo goes through', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const session = newSession();
    await post(visitorSays(websiteId, session, SPAM).body);
    await settle();
    crisp.reset();
    crisp.limitNext(/\/message\/\d+$/, 420, 2);
    await post(visitorSays(websiteId, session, 'claim your airdrop now').body);
    for (let i = 0; i < 100 && !crisp.calls.some((c) => c.method === 'DELETE'); i++)
      await new Promise((r) => setTimeout(r, 20));
    const ban = (await status(key, community.id)).audit_logs.find((l: { action: string }) => l.action === 'ban');
    expect(ban.delivery.status).toBe('pending');
    const early = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${ban.id}/undo`, { key });
    expect(early.status).toBe(422);
    expect(early.body.error.code).toBe('invalid_state');
    await settle();
    expect(crisp.isBlocked(websiteId, session)).toBe(true);
    const undo = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${ban.id}/undo`, { key });
    expect(undo.body).toMatchObject({ action: 'ban', delivery: 'delivered' });
    await settle();
    expect(crisp.calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { blocked: true },
      { blocked: false },
    ]);
    expect(crisp.isBlocked(websiteId, session)).toBe(false);
  });
});

describe('Crisp limits and credentials', () => {
  it('a 429 then a 420 are each waited out (Retry-After) and the call is made again; the audit log says delivered', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const session = newSession();
    crisp.limitNext(/\/message\/\d+$/, 429, 1);
    crisp.limitNext(/\/message\/\d+$/, 420, 1);
    const started = Date.now();
    const { fp, body } = visitorSays(websiteId, session, SPAM);
    await post(body);
    await settle();
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    const decision = crisp.calls.filter((c) => c.method !== 'POST');
    expect(decision).toEqual([
      remove(websiteId, session, fp),
      remove(websiteId, session, fp),
      remove(websiteId, session, fp),
      block(websiteId, session, true),
    ]);
    expect((await status(key, community.id)).audit_logs[0].delivery).toEqual({ status: 'delivered', error: null });
  });

  it("a wait longer than the queue can delay (Crisp's daily quota) is not cut short: back early, the delivery waits again without calling Crisp", async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const userId = (await api.call('GET', '/users/me', { key })).body.id;
    const session = newSession();
    const deliveryId = `long-wait-${randomUUID()}`;
    // Planned without the queue: the test is the queue, and brings the message back after its 15-minute maximum.
    await scheduleDelivery({
      communityId: community.id,
      userId,
      deliveryId,
      purpose: 'delete',
      calls: [crispDeleteMessage({ websiteId, sessionId: session, fingerprint: 42 })],
      observe: false,
      queue: false,
    });
    crisp.limitNext(/\/message\/\d+$/, 429, 6 * 60 * 60);
    const first = await runDelivery(community.id, deliveryId).catch((err: unknown) => err);
    expect(first).toBeInstanceOf(RetryLater);
    const early = await runDelivery(community.id, deliveryId).catch((err: unknown) => err);
    expect(early).toBeInstanceOf(RetryLater);
    expect((early as RetryLater).seconds).toBeGreaterThan(6 * 60 * 60 - 60);
    expect(crisp.calls).toEqual([remove(websiteId, session, 42)]);
  });

  it('a community deleted while its calls wait out a limit sends nothing more to Crisp', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    const session = newSession();
    crisp.limitNext(/\/message\/\d+$/, 420, 2);
    const { body } = visitorSays(websiteId, session, SPAM);
    await post(body);
    // The message's removal was met with the limit: the delivery now waits two seconds.
    for (let i = 0; i < 100 && !crisp.calls.some((c) => c.method === 'DELETE'); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(crisp.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    expect((await api.call('DELETE', `${BASE}/communities/${community.id}`, { key })).status).toBe(204);
    await settle();
    // Neither the removal nor the block went through once the community was gone.
    expect(crisp.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    expect(crisp.deleted.filter((d) => d.startsWith(`${websiteId}/`))).toEqual([]);
    expect(crisp.calls.filter((c) => c.method === 'PATCH')).toEqual([]);
    expect(crisp.isBlocked(websiteId, session)).toBe(false);
  });

  it('without the plugin token the actions are recorded as not_configured and nothing is sent; without the hook secret every hook is refused', async () => {
    const { key, community, websiteId } = await activatedWebsite();
    delete process.env.CRISP_TOKEN_KEY;
    try {
      await post(visitorSays(websiteId, newSession(), SPAM).body);
      await settle();
      expect((await status(key, community.id)).platform.configured).toBe(false);
    } finally {
      process.env.CRISP_TOKEN_KEY = KEY;
    }
    expect(crisp.calls).toEqual([]);
    expect((await status(key, community.id)).audit_logs[0].delivery).toEqual({
      status: 'not_configured',
      error: 'crisp is not configured on this deployment',
    });

    delete process.env.CRISP_HOOK_SECRET;
    try {
      expect((await post(visitorSays(websiteId, newSession(), SPAM).body)).status).toBe(401);
    } finally {
      process.env.CRISP_HOOK_SECRET = SECRET;
    }
  });

  it("a mute's end is never given up: Crisp failing for longer than the queue's retries is waited out until the unblock goes through", async () => {
    const { websiteId } = await activatedWebsite();
    const session = newSession();
    await post(visitorSays(websiteId, session, SPAM).body);
    await settle();
    crisp.reset();
    for (let i = 0; i < MAX_TRANSIENT_ATTEMPTS; i++) crisp.failNext(new RegExp(`${session}/block$`));
    await liftEndedCrispMutes(DELIVERY_CORE, new Date(Date.now() + MUTE_SECONDS * 1000 + 60_000));
    await settle();
    expect(crisp.calls.filter((c) => c.path.includes(session))).toEqual(
      Array(MAX_TRANSIENT_ATTEMPTS + 1).fill(block(websiteId, session, false)),
    );
    expect(crisp.isBlocked(websiteId, session)).toBe(false);
  });
});
