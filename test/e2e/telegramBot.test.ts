/**
 * The operator's Telegram bot end to end: updates posted to the shared webhook as Telegram would,
 * the real Bot API adapter pointed at the recording stand-in, and the exact calls asserted.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DELIVERY_CORE } from '#shared/domain/moderation/deliveryCore';
import { setCommunityFields } from '#test/support/communityRecord';
import { startTestApi } from '#test/support/api';
import { useOwnTable } from '#test/support/ownTable';
import { startTelegramStandIn } from '#bin/standIns/telegramStandIn';
import { removeUnverifiedMembers } from '#shared/platforms/telegram/captcha';
import { SILENCED, UNSILENCED } from '#shared/platforms/telegram/calls';
import { MUTE_SECONDS } from '#shared/platforms/contract';
import { WebhookReceiver } from '#test/support/webhookReceiver';

const TOKEN = '7000:operator-bot-token';
const SECRET = 'webhook-secret-xyz';
const telegram = await startTelegramStandIn(TOKEN);
const saved = { ...process.env };
process.env.TELEGRAM_BOT_TOKEN = TOKEN;
process.env.TELEGRAM_WEBHOOK_SECRET = SECRET;
process.env.TELEGRAM_API_BASE = telegram.apiBase;
// The captcha sweep it runs takes every pending captcha of its table that is due: other files' too on the shared table.
await useOwnTable('outreach-telegram');
const api = await startTestApi();
afterAll(async () => {
  for (const name of ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET', 'TELEGRAM_API_BASE']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await telegram.close();
  await receiver.stop();
});
const receiver = await new WebhookReceiver().start();

const BASE = '/integrations/moderation';
const ADMIN = { id: 10, is_bot: false, first_name: 'Ada', username: 'ada_admin' };
const SPAMMER = { id: 66, is_bot: false, first_name: 'Free', username: 'free_airdrops' };
const VETERAN = { id: 20, is_bot: false, first_name: 'Vic', username: 'vic' };
// Messages are written now: a mute older than its length is not applied at all.
const DATE = Math.floor(Date.now() / 1000);

let chatSeq = -1001000000000;
let updateSeq = 5000;
let messageSeq = 100;
const group = () => ({ id: --chatSeq, type: 'supergroup' as const, title: 'Acme' });

const post = (update: object, secret = SECRET) =>
  api.call('POST', `${BASE}/telegram`, { body: update, headers: { 'x-telegram-bot-api-secret-token': secret } });
const say = (chat: { id: number; type: string }, from: object, text: string, extra: object = {}) => {
  const update = {
    update_id: ++updateSeq,
    message: { message_id: ++messageSeq, date: DATE, chat, from, text, ...extra },
  };
  return { update, messageId: messageSeq };
};
const settle = () => api.ports.queue.drained();
const INVALID_TOKEN =
  'This activation token is not valid for a Telegram community (or was used already: its owner can issue a fresh one).';

async function activatedGroup(options: { welcome?: string; whitelisted?: string[] } = {}) {
  const { key } = await api.newUser({ credits: 5000 });
  const community = (
    await api.call('POST', `${BASE}/communities`, {
      key,
      body: {
        name: 'Acme chat',
        project_name: 'Acme',
        type: 'telegram',
        whitelisted_usernames: options.whitelisted ?? [],
        should_send_welcome_messages: !!options.welcome,
        welcome_message: options.welcome ?? '',
        alert_channel_message_template: '🚨 {action}: @{username}',
      },
    })
  ).body;
  const chat = group();
  telegram.setMemberStatus(chat.id, ADMIN.id, 'administrator');
  expect((await post(say(chat, ADMIN, `/activate ${community.activation_token}`).update)).status).toBe(200);
  await settle();
  telegram.reset();
  return { key, community, chat };
}

const status = async (key: string, id: string) =>
  (await api.call('GET', `${BASE}/status?community_id=${id}`, { key })).body;

/** The call that lifts a member's restriction: every permission True. */
const unsilenced = (chatId: number, userId: number) => ({
  method: 'restrictChatMember',
  body: { chat_id: chatId, user_id: userId, permissions: UNSILENCED, use_independent_chat_permissions: true },
});

beforeEach(() => telegram.reset());

describe('the shared Telegram webhook', () => {
  it('answers 401 without the webhook secret, and acts on nothing', async () => {
    const chat = group();
    const res = await post(say(chat, SPAMMER, 'claim your airdrop').update, 'wrong');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
    expect((await api.call('POST', `${BASE}/telegram`, { body: { update_id: 1 } })).status).toBe(401);
    // The secret is checked before the update is read: a stranger learns nothing about what a valid one looks like.
    const malformed = await api.call('POST', `${BASE}/telegram`, {
      body: { update_id: 'x', message: 7 },
      headers: { 'x-telegram-bot-api-secret-token': 'wrong' },
    });
    expect(malformed.status).toBe(401);
    expect(
      (
        await api.call('POST', `${BASE}/telegram`, {
          rawBody: '{not json',
          headers: { 'x-telegram-bot-api-secret-token': 'wrong' },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await api.call('POST', `${BASE}/telegram`, {
          body: { update_id: 1 },
          headers: { 'x-telegram-bot-api-secret-token': 'wrong-é-secret-xyz' },
        })
      ).status,
    ).toBe(401);
    expect(telegram.calls).toEqual([]);
  });

  it('a malformed update is a 400 with the contract body, never a 500', async () => {
    for (const body of [
      { update_id: 1, message: { message_id: 1 } },
      { update_id: 'x' },
      { update_id: 2, message: { message_id: 1, date: -5, chat: { id: 1, type: 'group' } } },
      { update_id: 3, callback_query: { id: 4 } },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
  });

  it('/activate from a non-administrator is refused; from an administrator it binds the group and connects the community', async () => {
    const { key } = await api.newUser({ credits: 5000 });
    const community = (
      await api.call('POST', `${BASE}/communities`, { key, body: { name: 'C', project_name: 'P', type: 'telegram' } })
    ).body;
    const chat = group();
    const member = { id: 77, is_bot: false, first_name: 'Mo' };
    await post(say(chat, member, `/activate ${community.activation_token}`).update);
    await settle();
    expect(telegram.calls).toEqual([
      { method: 'getChatMember', body: { chat_id: chat.id, user_id: 77 } },
      { method: 'sendMessage', body: { chat_id: chat.id, text: 'Only an administrator of this chat can do this.' } },
    ]);
    expect((await status(key, community.id)).status).toBe('pending_activation');

    telegram.reset();
    telegram.setMemberStatus(chat.id, ADMIN.id, 'creator');
    await post(say(chat, ADMIN, `/activate@outreach_mod_bot ${community.activation_token}`).update);
    await settle();
    expect(telegram.calls).toEqual([
      { method: 'getChatMember', body: { chat_id: chat.id, user_id: ADMIN.id } },
      { method: 'sendMessage', body: { chat_id: chat.id, text: 'Moderation is on for this group.' } },
    ]);
    const st = await status(key, community.id);
    expect(st.status).toBe('connected');
    expect(st.platform).toMatchObject({ chat_id: String(chat.id), alert_chat_id: null, configured: true });
  });

  it("/activate sends community.activated to the owner's webhook endpoint once, however often it is repeated", async () => {
    const { key } = await api.newUser({ credits: 5000 });
    const path = `/activated-${Date.now()}`;
    const endpoint = await api.call('POST', '/webhooks/endpoints', {
      key,
      body: { url: receiver.url(path), event_types: ['community.activated'] },
    });
    expect(endpoint.status).toBe(201);
    receiver.expectSecret(path, endpoint.body.secret);
    const community = (
      await api.call('POST', `${BASE}/communities`, { key, body: { name: 'C', project_name: 'P', type: 'telegram' } })
    ).body;
    const chat = group();
    telegram.setMemberStatus(chat.id, ADMIN.id, 'administrator');
    await post(say(chat, ADMIN, `/activate ${community.activation_token}`).update);
    await settle();
    const [hit] = await receiver.waitFor(path, 1);
    expect(hit.verified).toMatchObject({
      type: 'community.activated',
      data: { id: community.id, status: 'connected' },
    });
    // Activating again (the same group, another group) is not a second activation.
    await post(say(chat, ADMIN, `/activate ${community.activation_token}`).update);
    const other = group();
    telegram.setMemberStatus(other.id, ADMIN.id, 'administrator');
    await post(say(other, ADMIN, `/activate ${community.activation_token}`).update);
    await settle();
    await api.ports.webhookQueue.settled();
    expect(receiver.at(path)).toHaveLength(1);
  });

  it('an unknown token is answered as invalid and binds nothing', async () => {
    const chat = group();
    await post(say(chat, ADMIN, '/activate not-a-real-token').update);
    await settle();
    expect(telegram.calls).toEqual([
      {
        method: 'sendMessage',
        body: { chat_id: chat.id, text: INVALID_TOKEN },
      },
    ]);
  });

  it('spam from a new member: deleteMessage + restrictChatMember until_date, the alert in the /alerts chat, the audit log delivered', async () => {
    const { key, community, chat } = await activatedGroup();
    const alerts = { id: 555, type: 'private' as const, first_name: 'Ada' };
    // The token typed in the group is spent: the alert chat is named with a fresh one.
    const fresh = await api.call('POST', `${BASE}/communities/${community.id}/activation-token`, { key });
    await post(say(alerts, ADMIN, `/alerts ${fresh.body.activation_token}`).update);
    await settle();
    expect(telegram.calls).toEqual([
      { method: 'sendMessage', body: { chat_id: 555, text: 'Moderation alerts will be posted in this chat.' } },
    ]);
    telegram.reset();

    const { update, messageId } = say(chat, SPAMMER, 'Connect your wallet here to claim the bonus');
    const res = await post(update);
    expect(res.status).toBe(200);
    await settle();
    expect(telegram.calls).toEqual(
      expect.arrayContaining([
        { method: 'deleteMessage', body: { chat_id: chat.id, message_id: messageId } },
        {
          method: 'restrictChatMember',
          body: {
            chat_id: chat.id,
            user_id: SPAMMER.id,
            permissions: SILENCED,
            use_independent_chat_permissions: true,
            until_date: expect.any(Number),
          },
        },
        { method: 'sendMessage', body: { chat_id: 555, text: '🚨 mute: @free_airdrops' } },
      ]),
    );
    expect(telegram.calls).toHaveLength(3);
    // The mute lasts MUTE_SECONDS from when it was sent.
    const until = telegram.calls.find((c) => c.method === 'restrictChatMember')!.body.until_date as number;
    expect(until).toBeGreaterThanOrEqual(DATE + MUTE_SECONDS);
    expect(until).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + MUTE_SECONDS);
    // The mute's own calls in order: the message goes first.
    expect(telegram.calls.filter((c) => c.body.chat_id === chat.id).map((c) => c.method)).toEqual([
      'deleteMessage',
      'restrictChatMember',
    ]);
    const st = await status(key, community.id);
    expect(st.audit_logs[0]).toMatchObject({
      user_id: '66',
      action: 'mute',
      rule: 'scam_phrase',
      delivery: { status: 'delivered', error: null },
      undo: null,
    });
    expect(st.platform.alert_chat_id).toBe('555');
  });

  it('a message written as /activate with a link for its token is moderated like any other, not let through', async () => {
    const { key, community, chat } = await activatedGroup();
    const { update, messageId } = say(chat, SPAMMER, '/activate https://t.me/+FreeAirdropGroup');
    await post(update);
    await settle();
    // A first invite link from a new member is warned, as it would be without the /activate in front.
    expect(telegram.calls).toEqual([
      {
        method: 'sendMessage',
        body: {
          chat_id: chat.id,
          reply_parameters: { message_id: messageId, allow_sending_without_reply: true },
          text: "⚠️ Telegram invite from a new member. Please keep to the group's rules.",
        },
      },
    ]);
    expect((await status(key, community.id)).audit_logs[0]).toMatchObject({
      user_id: '66',
      action: 'warn',
      rule: 'invite_link',
      undoable: false, // a sent warning cannot be taken back on Telegram
    });
  });

  it('a whitelisted sender and a clean message cause no platform call; both are scanned', async () => {
    const { key, community, chat } = await activatedGroup({ whitelisted: ['ada_admin'] });
    await post(say(chat, ADMIN, 'Claim your airdrop at https://acme.org/airdrop — official, no DMs').update);
    await post(say(chat, VETERAN, 'what do you think about the roadmap?').update);
    await settle();
    expect(telegram.calls).toEqual([]);
    const st = await status(key, community.id);
    expect(st.metrics.messages_scanned).toBe(2);
    expect(st.audit_logs).toEqual([]);
  });

  it('a binding left from before the community changed type is not acted on', async () => {
    const { key, community, chat } = await activatedGroup();
    // The type changed (and the community connected on its new platform) while the group's binding stayed.
    await setCommunityFields((await api.call('GET', '/users/me', { key })).body.id, community.id, { type: 'reddit' });
    expect((await status(key, community.id)).status).toBe('connected');
    expect((await post(say(chat, SPAMMER, 'Connect your wallet here to claim the bonus').update)).status).toBe(200);
    await settle();
    expect(telegram.calls).toEqual([]);
    expect((await status(key, community.id)).metrics.messages_scanned).toBe(0);
  });

  it('a re-delivered update is acted on once', async () => {
    const { key, community, chat } = await activatedGroup();
    const { update, messageId } = say(chat, SPAMMER, 'send your seed phrase to verify your account');
    await post(update);
    await settle();
    await post(update);
    await post(update);
    await settle();
    expect(telegram.calls.map((c) => [c.method, c.body.message_id ?? c.body.user_id])).toEqual([
      ['deleteMessage', messageId],
      ['restrictChatMember', SPAMMER.id],
    ]);
    expect((await status(key, community.id)).metrics).toMatchObject({ messages_scanned: 1, actions: { mute: 1 } });
  });

  it('in a moderated group a command with a bad token gets no reply (nothing for a spammer to farm)', async () => {
    const { chat } = await activatedGroup();
    await post(say(chat, SPAMMER, '/activate not-a-token').update);
    await post(say(chat, SPAMMER, '/alerts not-a-token').update);
    await settle();
    expect(telegram.calls).toEqual([]);
  });

  it('a join is welcomed with the template', async () => {
    const { chat } = await activatedGroup({ welcome: 'Welcome {username}! Read the pinned rules.' });
    const newcomer = { id: 31, is_bot: false, first_name: 'Nia', username: 'nia' };
    await post({
      update_id: ++updateSeq,
      message: { message_id: ++messageSeq, date: DATE, chat, from: newcomer, new_chat_members: [newcomer] },
    });
    await settle();
    expect(telegram.calls).toEqual([
      { method: 'sendMessage', body: { chat_id: chat.id, text: 'Welcome nia! Read the pinned rules.' } },
    ]);
  });

  it('a member without a username is welcomed by their first name, not by their numeric id', async () => {
    const { chat } = await activatedGroup({ welcome: 'Welcome {username}! Read the pinned rules.' });
    const newcomer = { id: 5_123_456_789, is_bot: false, first_name: 'Lin' };
    await post({
      update_id: ++updateSeq,
      message: { message_id: ++messageSeq, date: DATE, chat, from: newcomer, new_chat_members: [newcomer] },
    });
    await settle();
    expect(telegram.calls).toEqual([
      { method: 'sendMessage', body: { chat_id: chat.id, text: 'Welcome Lin! Read the pinned rules.' } },
    ]);
  });

  it('captcha: a join is restricted and prompted; the press lifts it; a member who never presses is removed by the sweep', async () => {
    const { key, community, chat } = await activatedGroup();
    await api.call('PUT', `${BASE}/communities/${community.id}/rules`, {
      key,
      body: { captcha: { enabled: true, timeout_seconds: 120 } },
    });
    const presser = { id: 41, is_bot: false, first_name: 'Pat', username: 'pat' };
    const sleeper = { id: 42, is_bot: false, first_name: 'Sam' };
    const joinDate = Math.floor(Date.now() / 1000);
    for (const member of [presser, sleeper]) {
      await post({
        update_id: ++updateSeq,
        message: { message_id: ++messageSeq, date: joinDate, chat, from: member, new_chat_members: [member] },
      });
    }
    await settle();
    const prompts = telegram.calls.filter((c) => c.method === 'sendMessage');
    const sleeperPrompt = telegram.sent.find((m) => m.text.startsWith('Welcome, Sam!'))!.message_id;
    expect(telegram.calls.filter((c) => c.method === 'restrictChatMember')).toEqual([
      {
        method: 'restrictChatMember',
        body: {
          chat_id: chat.id,
          user_id: 41,
          permissions: SILENCED,
          use_independent_chat_permissions: true,
          until_date: 0,
        },
      },
      {
        method: 'restrictChatMember',
        body: {
          chat_id: chat.id,
          user_id: 42,
          permissions: SILENCED,
          use_independent_chat_permissions: true,
          until_date: 0,
        },
      },
    ]);
    expect(prompts.map((p) => p.body.reply_markup)).toEqual([
      { inline_keyboard: [[{ text: "I'm human ✅", callback_data: 'captcha:41' }]] },
      { inline_keyboard: [[{ text: "I'm human ✅", callback_data: 'captcha:42' }]] },
    ]);
    expect(prompts[0].body.text).toBe('Welcome, @pat! Press the button within 2 minute(s) to show you are human.');
    expect([telegram.isRestricted(chat.id, 41), telegram.isRestricted(chat.id, 42)]).toEqual([true, true]);
    telegram.reset();

    // Someone else pressing Pat's button changes nothing.
    await post({
      update_id: ++updateSeq,
      callback_query: {
        id: 'cb-0',
        from: sleeper,
        chat_instance: 'x',
        data: 'captcha:41',
        message: { message_id: 9001, date: joinDate, chat },
      },
    });
    await post({
      update_id: ++updateSeq,
      callback_query: {
        id: 'cb-1',
        from: presser,
        chat_instance: 'x',
        data: 'captcha:41',
        message: { message_id: 9001, date: joinDate, chat },
      },
    });
    await settle();
    expect(telegram.calls).toEqual([
      {
        method: 'answerCallbackQuery',
        body: { callback_query_id: 'cb-0', text: 'This button is for the new member.' },
      },
      unsilenced(chat.id, 41),
      { method: 'answerCallbackQuery', body: { callback_query_id: 'cb-1', text: 'Thanks, you can post now.' } },
      { method: 'deleteMessage', body: { chat_id: chat.id, message_id: 9001 } },
    ]);
    // Every permission given back, as the Bot API asks: Pat is a plain member again, Sam still restricted.
    expect([telegram.isRestricted(chat.id, 41), telegram.isRestricted(chat.id, 42)]).toEqual([false, true]);
    telegram.reset();

    // Before the deadline the sweep leaves Sam alone; after it, Sam is removed (ban + unban) and the prompt deleted.
    await removeUnverifiedMembers(DELIVERY_CORE, new Date((joinDate + 60) * 1000));
    await settle();
    expect(telegram.calls.filter((c) => c.body.chat_id === chat.id)).toEqual([]);
    await removeUnverifiedMembers(DELIVERY_CORE, new Date((joinDate + 121) * 1000));
    await removeUnverifiedMembers(DELIVERY_CORE, new Date((joinDate + 180) * 1000));
    await settle();
    expect(telegram.calls.filter((c) => c.body.chat_id === chat.id)).toEqual([
      { method: 'banChatMember', body: { chat_id: chat.id, user_id: 42 } },
      { method: 'unbanChatMember', body: { chat_id: chat.id, user_id: 42, only_if_banned: true } },
      { method: 'deleteMessage', body: { chat_id: chat.id, message_id: sleeperPrompt } },
    ]);
  });

  it('observe mode: decisions and audit logs, no platform call', async () => {
    const { key, community, chat } = await activatedGroup();
    await api.call('PUT', `${BASE}/communities/${community.id}/rules`, { key, body: { mode: 'observe' } });
    await post(say(chat, SPAMMER, 'Connect your wallet to claim').update);
    await settle();
    expect(telegram.calls).toEqual([]);
    const st = await status(key, community.id);
    expect(st.audit_logs[0]).toMatchObject({ action: 'mute', delivery: { status: 'observe', error: null } });
  });

  it('undo lifts a mute and a ban on the platform, once, and the audit log shows it', async () => {
    const { key, community, chat } = await activatedGroup();
    await post(say(chat, SPAMMER, 'Connect your wallet to claim').update);
    await post(say(chat, SPAMMER, 'claim your airdrop now').update);
    await settle();
    const logs = (await status(key, community.id)).audit_logs;
    expect(logs.map((l: { action: string }) => l.action)).toEqual(['ban', 'mute']);
    // Undo is offered where it can succeed: both are liftable until undone.
    expect(logs.map((l: { undoable: boolean }) => l.undoable)).toEqual([true, true]);
    expect(telegram.isRestricted(chat.id, SPAMMER.id)).toBe(true);
    telegram.reset();
    const scoreOf = async (text: string) =>
      (await api.call('POST', `${BASE}/communities/${community.id}/check`, { key, body: { messages: [{ text }] } }))
        .body.results[0].score as number;
    const before = await scoreOf('claim your airdrop now');

    const undoBan = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${logs[0].id}/undo`, {
      key,
    });
    expect(undoBan.status).toBe(200);
    expect(undoBan.body).toMatchObject({ audit_id: logs[0].id, action: 'ban', delivery: 'delivered', error: null });
    const undoMute = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${logs[1].id}/undo`, {
      key,
    });
    expect(undoMute.body).toMatchObject({ action: 'mute', delivery: 'delivered' });
    // Each undo taught its message as ham: the community now judges it milder.
    expect(await scoreOf('claim your airdrop now')).toBeLessThan(before);
    expect(telegram.calls).toEqual([
      { method: 'unbanChatMember', body: { chat_id: chat.id, user_id: SPAMMER.id, only_if_banned: true } },
      unsilenced(chat.id, SPAMMER.id),
    ]);
    // The undone mute leaves no restriction behind (every permission True lifts it).
    expect(telegram.isRestricted(chat.id, SPAMMER.id)).toBe(false);
    const again = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${logs[0].id}/undo`, { key });
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('invalid_state');
    expect(telegram.calls).toHaveLength(2);
    const { audit_logs: after, metrics } = await status(key, community.id);
    expect(after[0].undo).toMatchObject({ status: 'delivered', error: null });
    expect(after.map((l: { undoable: boolean }) => l.undoable)).toEqual([false, false]);
    // The wrong removals a moderator corrected, counted once each, and what they taught.
    expect(metrics).toMatchObject({ actions_undone: 2, examples_taught: 2 });
    expect(
      (
        await api.call(
          'POST',
          `${BASE}/communities/${community.id}/audit-logs/0190a0a0-0000-7000-8000-000000000000/undo`,
          { key },
        )
      ).status,
    ).toBe(404);
  });

  it('undo lifts in the group the action was taken in after the community moved, and is refused once another community holds that group', async () => {
    const { key, community, chat } = await activatedGroup();
    await post(say(chat, SPAMMER, 'Connect your wallet to claim').update);
    await post(say(chat, VETERAN, 'Connect your wallet to claim').update);
    await settle();
    const [second, first] = (await status(key, community.id)).audit_logs;
    expect([first.action, second.action, first.user_id, second.user_id]).toEqual([
      'mute',
      'mute',
      String(SPAMMER.id),
      String(VETERAN.id),
    ]);
    const moved = group();
    telegram.setMemberStatus(moved.id, ADMIN.id, 'administrator');
    const fresh = await api.call('POST', `${BASE}/communities/${community.id}/activation-token`, { key });
    await post(say(moved, ADMIN, `/activate ${fresh.body.activation_token}`).update);
    await settle();
    expect((await status(key, community.id)).platform.chat_id).toBe(String(moved.id));
    telegram.reset();

    // The first group is free: the lift goes there, never to the group the community moved to.
    const undo = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${first.id}/undo`, { key });
    expect(undo.body).toMatchObject({ action: 'mute', delivery: 'delivered', error: null });
    expect(telegram.calls).toEqual([unsilenced(chat.id, SPAMMER.id)]);

    // Another community takes the first group: lifting there is no longer this community's to do.
    const other = await activatedGroup();
    telegram.setMemberStatus(chat.id, ADMIN.id, 'administrator');
    const otherToken = await api.call('POST', `${BASE}/communities/${other.community.id}/activation-token`, {
      key: other.key,
    });
    await post(say(chat, ADMIN, `/activate ${otherToken.body.activation_token}`).update);
    await settle();
    expect((await status(other.key, other.community.id)).platform.chat_id).toBe(String(chat.id));
    telegram.reset();
    // The status says so before anyone tries: the undo would be refused.
    const logs = (await status(key, community.id)).audit_logs;
    expect(logs.find((l: { id: string }) => l.id === second.id).undoable).toBe(false);
    const refused = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${second.id}/undo`, {
      key,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'invalid_state',
      message: `This action was taken in ${chat.id} on telegram, which another community moderates now: lift it on telegram itself.`,
    });
    expect(telegram.calls).toEqual([]);
  });

  it("a 429 with retry_after is retried after Telegram's wait; a refusal is recorded as failed with Telegram's error", async () => {
    const { key, community, chat } = await activatedGroup();
    telegram.failNext('deleteMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 1',
      retry_after: 1,
    });
    const started = Date.now();
    const { update, messageId } = say(chat, SPAMMER, 'send your seed phrase to verify');
    await post(update);
    await settle();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(telegram.calls.map((c) => c.method)).toEqual(['deleteMessage', 'deleteMessage', 'restrictChatMember']);
    expect(telegram.calls[1].body).toEqual({ chat_id: chat.id, message_id: messageId });
    expect((await status(key, community.id)).audit_logs[0].delivery).toEqual({ status: 'delivered', error: null });

    telegram.reset();
    telegram.failNext('banChatMember', {
      error_code: 400,
      description: 'Bad Request: not enough rights to restrict/unrestrict chat member',
    });
    await post(say(chat, SPAMMER, 'claim your airdrop here').update);
    await settle();
    expect(telegram.calls.map((c) => c.method)).toEqual(['deleteMessage', 'banChatMember']);
    expect((await status(key, community.id)).audit_logs[0].delivery).toEqual({
      status: 'failed',
      error: 'banChatMember: Bad Request: not enough rights to restrict/unrestrict chat member',
    });
  });

  it('without a bot token the actions are recorded as not_configured and nothing is sent', async () => {
    const { key, community, chat } = await activatedGroup();
    delete process.env.TELEGRAM_BOT_TOKEN;
    try {
      await post(say(chat, SPAMMER, 'Connect your wallet to claim').update);
      await settle();
    } finally {
      process.env.TELEGRAM_BOT_TOKEN = TOKEN;
    }
    expect(telegram.calls).toEqual([]);
    const st = await status(key, community.id);
    expect(st.audit_logs[0].delivery).toEqual({
      status: 'not_configured',
      error: 'telegram is not configured on this deployment',
    });
  });
});

describe('an activation token binds once', () => {
  const alertChat = () => ({ id: 9000 + updateSeq, type: 'private' as const, first_name: 'Ada' });
  const sent = (chatId: number) =>
    telegram.calls.filter((c) => c.method === 'sendMessage' && c.body.chat_id === chatId);
  const boundChat = async (key: string, id: string) => (await status(key, id)).status;

  it('a member who copies the token from the group can neither move the community to their group nor take its alerts', async () => {
    const { key, community, chat } = await activatedGroup();
    const theirs = group();
    const MALLORY = { id: 77, is_bot: false, first_name: 'Mal' };
    telegram.setMemberStatus(theirs.id, MALLORY.id, 'creator');
    await post(say(theirs, MALLORY, `/activate ${community.activation_token}`).update);
    const dm = alertChat();
    await post(say(dm, MALLORY, `/alerts ${community.activation_token}`).update);
    await settle();
    expect(sent(theirs.id).map((c) => c.body.text)).toEqual([INVALID_TOKEN]);
    expect(sent(dm.id).map((c) => c.body.text)).toEqual([INVALID_TOKEN]);
    telegram.reset();

    // Still moderated where it was bound, and its alerts go nowhere new.
    const { update, messageId } = say(chat, SPAMMER, 'Connect your wallet here to claim the bonus');
    await post(update);
    const elsewhere = say(theirs, SPAMMER, 'Connect your wallet here to claim the bonus');
    await post(elsewhere.update);
    await settle();
    expect(telegram.calls).toContainEqual({
      method: 'deleteMessage',
      body: { chat_id: chat.id, message_id: messageId },
    });
    expect(telegram.calls.filter((c) => c.body.chat_id === theirs.id || c.body.chat_id === dm.id)).toEqual([]);
    expect(await boundChat(key, community.id)).toBe('connected');
  });

  it('the group it bound may present it again; an alert chat named before activation keeps it live for /activate', async () => {
    const { key } = await api.newUser({ credits: 5000 });
    const community = (
      await api.call('POST', `${BASE}/communities`, {
        key,
        body: { name: 'Order', project_name: 'Acme', type: 'telegram' },
      })
    ).body;
    const dm = alertChat();
    await post(say(dm, ADMIN, `/alerts ${community.activation_token}`).update);
    const chat = group();
    telegram.setMemberStatus(chat.id, ADMIN.id, 'administrator');
    await post(say(chat, ADMIN, `/activate ${community.activation_token}`).update);
    await post(say(chat, ADMIN, `/activate ${community.activation_token}`).update);
    await settle();
    expect(sent(dm.id).map((c) => c.body.text)).toEqual(['Moderation alerts will be posted in this chat.']);
    expect(sent(chat.id).map((c) => c.body.text)).toEqual([
      'Moderation is on for this group.',
      'Moderation is on for this group.',
    ]);
    expect(await boundChat(key, community.id)).toBe('connected');
  });

  it('a fresh token moves the community on purpose, once; the replaced token finds nothing', async () => {
    const { key, community, chat } = await activatedGroup();
    const res = await api.call('POST', `${BASE}/communities/${community.id}/activation-token`, { key });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(community.id);
    expect(res.body.status).toBe('connected');
    const fresh = res.body.activation_token as string;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(fresh).not.toBe(community.activation_token);
    expect((await api.call('GET', `${BASE}/communities/${community.id}`, { key })).body.activation_token).toBe(fresh);

    const next = group();
    telegram.setMemberStatus(next.id, ADMIN.id, 'administrator');
    await post(say(next, ADMIN, `/activate ${community.activation_token}`).update);
    await post(say(next, ADMIN, `/activate ${fresh}`).update);
    const third = group();
    telegram.setMemberStatus(third.id, ADMIN.id, 'administrator');
    await post(say(third, ADMIN, `/activate ${fresh}`).update);
    await settle();
    expect(sent(next.id).map((c) => c.body.text)).toEqual([INVALID_TOKEN, 'Moderation is on for this group.']);
    expect(sent(third.id).map((c) => c.body.text)).toEqual([INVALID_TOKEN]);
    telegram.reset();
    // Moved: the new group is moderated, the old one is free.
    const spam = say(next, SPAMMER, 'Connect your wallet here to claim the bonus');
    await post(spam.update);
    await post(say(chat, SPAMMER, 'Connect your wallet here to claim the bonus').update);
    await settle();
    expect(telegram.calls).toContainEqual({
      method: 'deleteMessage',
      body: { chat_id: next.id, message_id: spam.messageId },
    });
    expect(telegram.calls.filter((c) => c.body.chat_id === chat.id)).toEqual([]);
  });

  it("a custom bridge's activation event spends it too: the operator's bot then binds no group with it", async () => {
    const { key } = await api.newUser({ credits: 5000 });
    const community = (
      await api.call('POST', `${BASE}/communities`, {
        key,
        body: { name: 'Bridge', project_name: 'Acme', type: 'telegram' },
      })
    ).body;
    const activation = await api.call('POST', `${BASE}/communities/${community.id}/events`, {
      key,
      body: {
        events: [
          {
            event_id: 'act',
            type: 'activation',
            user: { id: 'bridge' },
            token: community.activation_token,
            sent_at: new Date().toISOString(),
          },
        ],
      },
    });
    expect(activation.body.decisions[0].reason).toMatch(/accepted/);
    const chat = group();
    telegram.setMemberStatus(chat.id, ADMIN.id, 'administrator');
    await post(say(chat, ADMIN, `/activate ${community.activation_token}`).update);
    await settle();
    expect(sent(chat.id).map((c) => c.body.text)).toEqual([INVALID_TOKEN]);
  });

  it("is the owner's: another key gets 404, an expired community 422", async () => {
    const { community } = await activatedGroup();
    const other = await api.newUser({ credits: 0 });
    const res = await api.call('POST', `${BASE}/communities/${community.id}/activation-token`, { key: other.key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    const { key, community: gone } = await activatedGroup();
    await setCommunityFields((await api.call('GET', '/users/me', { key })).body.id, gone.id, {
      billingState: 'expired',
    });
    const expired = await api.call('POST', `${BASE}/communities/${gone.id}/activation-token`, { key });
    expect(expired.status).toBe(422);
    expect(expired.body.error.code).toBe('invalid_state');
  });
});
