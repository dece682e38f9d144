/**
 * What every platform owes through the seam, checked platform by platform: observe mode performs no
 * platform action (a row per community type: a new type without its row does not compile), the
 * captcha sweep honours observe, and a place on a platform belongs to one community at a time.
 * Telegram and Discord run against their recording stand-ins; reddit, x and crisp rows drive their
 * registered module (a placeholder until the platform's own module replaces it, with this row).
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { DELIVERY_CORE } from '#shared/domain/moderation/deliveryCore';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { useOwnTable } from '#test/support/ownTable';
import { startTelegramStandIn } from '#bin/standIns/telegramStandIn';
import { nextSnowflake, startDiscordStandIn } from '#bin/standIns/discordStandIn';
import { removeUnverifiedMembers } from '#shared/platforms/telegram/captcha';
import { COMMUNITY_TYPES, type CommunityType } from '#shared/domain/moderation/communityTypes';
import { PLATFORMS } from '#shared/platforms/registry';
import { decisionDeliveryId, runDelivery, scheduleDelivery } from '#shared/domain/moderation/platformCallRunner';
import { getDelivery, type PlannedCall } from '#shared/store/platformCallsRepo';
import { bindExternal, boundCommunity } from '#shared/store/bindingsRepo';
import { bindModeratedPlace } from '#shared/domain/moderation/binding';
import { getCommunity } from '#shared/store/communitiesRepo';

const TG_TOKEN = '7100:seam-bot-token';
const TG_SECRET = 'seam-webhook-secret';
const DC_TOKEN = 'seam-discord-token';
const telegram = await startTelegramStandIn(TG_TOKEN);
const discord = await startDiscordStandIn(DC_TOKEN);
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const ENV = {
  TELEGRAM_BOT_TOKEN: TG_TOKEN,
  TELEGRAM_WEBHOOK_SECRET: TG_SECRET,
  TELEGRAM_API_BASE: telegram.apiBase,
  DISCORD_APPLICATION_ID: '123456789012345678',
  DISCORD_PUBLIC_KEY: publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex'),
  DISCORD_BOT_TOKEN: DC_TOKEN,
  DISCORD_API_BASE: discord.apiBase,
};
const saved = { ...process.env };
Object.assign(process.env, ENV);
// The captcha sweep it runs takes every pending captcha of its table that is due: other files' too on the shared table.
await useOwnTable('outreach-seam');
const api = await startTestApi();
afterAll(async () => {
  for (const name of Object.keys(ENV)) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await telegram.close();
  await discord.close();
});
beforeEach(() => {
  telegram.reset();
  discord.reset();
});

const BASE = '/integrations/moderation';
const settle = () => api.ports.queue.drained();
const ADMIN = { id: 10, is_bot: false, first_name: 'Ada', username: 'ada_admin' };
const SPAMMER = { id: 66, is_bot: false, first_name: 'Free', username: 'free_airdrops' };
let chatSeq = -1004000000000;
let updateSeq = 9000;
let messageSeq = 500;

async function community(type: CommunityType) {
  const { key, user } = await api.newUser({ credits: 5000 });
  const created = (
    await api.call('POST', `${BASE}/communities`, { key, body: { name: `${type} place`, project_name: 'Acme', type } })
  ).body;
  return { key, user, community: created };
}
const setRules = (key: string, id: string, body: object) =>
  api.call('PUT', `${BASE}/communities/${id}/rules`, { key, body });
const status = async (key: string, id: string) =>
  (await api.call('GET', `${BASE}/status?community_id=${id}`, { key })).body;

// ---- Telegram ----
const tgPost = (update: object) =>
  api.call('POST', `${BASE}/telegram`, { body: update, headers: { 'x-telegram-bot-api-secret-token': TG_SECRET } });
const tgSay = (chat: object, from: object, text: string) =>
  tgPost({
    update_id: ++updateSeq,
    message: { message_id: ++messageSeq, date: Math.floor(Date.now() / 1000), chat, from, text },
  });
const newGroup = () => {
  const chat = { id: --chatSeq, type: 'supergroup' as const, title: 'Acme' };
  telegram.setMemberStatus(chat.id, ADMIN.id, 'administrator');
  return chat;
};
async function telegramGroup(chat = newGroup()) {
  const c = await community('telegram');
  await tgSay(chat, ADMIN, `/activate ${c.community.activation_token}`);
  await settle();
  telegram.reset();
  return { ...c, chat };
}

// ---- Discord ----
function interact(body: object) {
  const raw = JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign(null, Buffer.from(timestamp + raw), privateKey).toString('hex');
  return api.call('POST', `${BASE}/discord/interactions`, {
    rawBody: raw,
    headers: {
      'content-type': 'application/json',
      'x-signature-ed25519': signature,
      'x-signature-timestamp': timestamp,
    },
  });
}
const dcCommand = (guildId: string, name: string, options: object[] = [], channelId = '900') => ({
  id: nextSnowflake(),
  application_id: ENV.DISCORD_APPLICATION_ID,
  type: 2,
  token: 'itoken',
  version: 1,
  guild_id: guildId,
  channel_id: channelId,
  member: { user: { id: '42', username: 'owner' }, permissions: String(1 << 5), roles: [] },
  data: { id: '1', name, type: 1, options },
});
const dcActivate = (guild: string, token: string) =>
  interact(dcCommand(guild, 'activate', [{ name: 'token', type: 3, value: token }]));
/** What the guild's AutoMod rules were last written as (POST or PATCH bodies, by name). */
const writtenRules = (guild: string): Record<string, { enabled: boolean }> =>
  Object.fromEntries(
    discord.calls
      .filter(
        (c) =>
          c.path.startsWith(`/guilds/${guild}/auto-moderation/rules`) && (c.method === 'POST' || c.method === 'PATCH'),
      )
      .map((c) => [c.body.name, c.body]),
  );

// ---- Reddit, X, Crisp: their module's decisions, planned as their ingest plans them ----
async function viaModule(type: 'reddit' | 'x' | 'crisp', target: object = { userId: 'u1', itemId: 'i1' }) {
  const c = await community(type);
  const events = [
    {
      event_id: 'bridge-activation',
      type: 'activation',
      user: { id: 'bridge' },
      token: c.community.activation_token,
      sent_at: new Date().toISOString(),
    },
  ];
  await api.call('POST', `${BASE}/communities/${c.community.id}/events`, { key: c.key, body: { events } });
  await setRules(c.key, c.community.id, { mode: 'observe' });
  // Each module's own target shape (the placeholders': a member and an item).
  const calls = (PLATFORMS[type].decisions!.mute as (t: object, text: { warning: string }) => PlannedCall[])(target, {
    warning: 'w',
  });
  const rules = (await api.call('GET', `${BASE}/communities/${c.community.id}/rules`, { key: c.key })).body;
  const deliveryId = decisionDeliveryId(`${type}-observe-1`);
  await scheduleDelivery({
    communityId: c.community.id,
    deliveryId,
    purpose: 'mute',
    eventId: `${type}-observe-1`,
    calls,
    observe: rules.mode === 'observe',
  });
  await settle();
  expect(await runDelivery(c.community.id, deliveryId)).toBe('observe');
  expect((await getDelivery(c.community.id, deliveryId))?.outcomes).toEqual(calls.map(() => null));
}

/** Observe on each platform: decisions and audit logs, never an action. */
const OBSERVE: { [K in CommunityType]: () => Promise<void> } = {
  telegram: async () => {
    const { key, community: c, chat } = await telegramGroup();
    await setRules(key, c.id, { mode: 'observe' });
    await tgSay(chat, SPAMMER, 'Connect your wallet here to claim the bonus');
    await settle();
    expect(telegram.calls).toEqual([]);
    expect((await status(key, c.id)).audit_logs[0]).toMatchObject({ action: 'mute', delivery: { status: 'observe' } });
  },
  discord: async () => {
    const { key, community: c } = await community('discord');
    const guild = nextSnowflake();
    await setRules(key, c.id, { mode: 'observe' });
    expect((await dcActivate(guild, c.activation_token)).body.data.content).toContain('Moderation is on');
    await settle();
    // Written, so the guild's own rules are ours to switch, but none of them acts.
    const onActivation = writtenRules(guild);
    expect(Object.keys(onActivation)).toHaveLength(6);
    for (const rule of Object.values(onActivation)) expect(rule.enabled).toBe(false);
    discord.reset();
    await setRules(key, c.id, { mode: 'enforce' });
    await settle();
    expect(Object.values(writtenRules(guild)).filter((r) => r.enabled)).toHaveLength(6);
    discord.reset();
    await setRules(key, c.id, { mode: 'observe', rules: { link: { enabled: true } } });
    await interact(dcCommand(guild, 'alerts', [], '777'));
    await settle();
    const after = Object.values(writtenRules(guild));
    expect(after.length).toBeGreaterThanOrEqual(6);
    for (const rule of after) expect(rule.enabled).toBe(false);
  },
  reddit: () =>
    viaModule('reddit', {
      communityId: 'c',
      subreddit: 'acme',
      fullname: 't3_abc',
      author: 'u1',
      writtenAt: new Date().toISOString(),
      rule: 'scam_phrase',
      reason: 'scam',
    }),
  // X's target: a reply (post id) and its author.
  x: () => viaModule('x', { postId: '1860000000000000001', authorId: '4242' }),
  crisp: () =>
    viaModule('crisp', {
      websiteId: 'w-observe',
      sessionId: 'session_observe',
      fingerprint: 1,
      at: new Date().toISOString(),
    }),
};

describe('observe mode performs no action on any platform', () => {
  it.each([...COMMUNITY_TYPES])('%s', async (type) => {
    await OBSERVE[type]();
  });

  it('the captcha sweep removes no one once the community observes', async () => {
    const { key, community: c, chat } = await telegramGroup();
    await setRules(key, c.id, { captcha: { enabled: true, timeout_seconds: 60 } });
    const joinDate = Math.floor(Date.now() / 1000);
    const member = { id: 77, is_bot: false, first_name: 'Sam' };
    await tgPost({
      update_id: ++updateSeq,
      message: { message_id: ++messageSeq, date: joinDate, chat, from: member, new_chat_members: [member] },
    });
    await settle();
    expect(telegram.calls.map((call) => call.method)).toEqual(['restrictChatMember', 'sendMessage']);
    telegram.reset();
    await setRules(key, c.id, { mode: 'observe' });
    await removeUnverifiedMembers(DELIVERY_CORE, new Date((joinDate + 120) * 1000));
    await settle();
    expect(telegram.calls).toEqual([]);
    // Swept once: switching back to enforce does not bring the removal back later.
    await setRules(key, c.id, { mode: 'enforce' });
    await removeUnverifiedMembers(DELIVERY_CORE, new Date((joinDate + 180) * 1000));
    await settle();
    expect(telegram.calls).toEqual([]);
  });
});

describe('a place on a platform belongs to one community at a time', () => {
  it('Telegram: a second /activate in a bound group is refused in the chat; the group stays with the first community', async () => {
    const first = await telegramGroup();
    const second = await community('telegram');
    await tgSay(first.chat, ADMIN, `/activate ${second.community.activation_token}`);
    await settle();
    expect(telegram.calls.filter((call) => call.method === 'sendMessage')).toEqual([
      {
        method: 'sendMessage',
        body: {
          chat_id: first.chat.id,
          text: 'This chat already belongs to another moderation community. Remove it there (or delete that community) first.',
        },
      },
    ]);
    expect(await status(first.key, first.community.id)).toMatchObject({
      status: 'connected',
      platform: { chat_id: String(first.chat.id) },
    });
    expect(await status(second.key, second.community.id)).toMatchObject({
      status: 'pending_activation',
      platform: { chat_id: null },
    });
    // Still moderated for the first community.
    telegram.reset();
    await tgSay(first.chat, SPAMMER, 'Connect your wallet here to claim the bonus');
    await settle();
    expect(telegram.calls.map((call) => call.method)).toEqual(['deleteMessage', 'restrictChatMember']);
  });

  it('Telegram: /alerts <token> of another community in a moderated group is refused and the group stays moderated', async () => {
    const first = await telegramGroup();
    const second = await telegramGroup();
    // Its own token was spent on its group: the owner names an alert chat with a fresh one.
    const fresh = await api.call(
      'POST',
      `/integrations/moderation/communities/${second.community.id}/activation-token`,
      {
        key: second.key,
      },
    );
    await tgSay(first.chat, ADMIN, `/alerts ${fresh.body.activation_token}`);
    await settle();
    expect(telegram.calls.filter((call) => call.method === 'sendMessage')).toEqual([
      {
        method: 'sendMessage',
        body: {
          chat_id: first.chat.id,
          text: 'This chat already belongs to another moderation community. Remove it there (or delete that community) first.',
        },
      },
    ]);
    expect((await status(second.key, second.community.id)).platform.alert_chat_id).toBeNull();
    expect(await boundCommunity('telegram', String(first.chat.id))).toMatchObject({
      communityId: first.community.id,
      role: 'moderated',
    });
  });

  it('Discord: a second /activate in a bound guild is refused; only the first community writes its AutoMod', async () => {
    const first = await community('discord');
    const second = await community('discord');
    const guild = nextSnowflake();
    await dcActivate(guild, first.community.activation_token);
    await settle();
    discord.reset();
    const refused = await dcActivate(guild, second.community.activation_token);
    expect(refused.body.data.content).toBe(
      'This server already belongs to another moderation community. Remove it there (or delete that community) first.',
    );
    await settle();
    expect(discord.calls).toEqual([]);
    expect(await status(second.key, second.community.id)).toMatchObject({
      status: 'pending_activation',
      platform: { chat_id: null },
    });
    // The second community's rules changes never reach the guild.
    await setRules(second.key, second.community.id, { mode: 'enforce', blocked_words: ['takeover'] });
    await settle();
    expect(discord.calls).toEqual([]);
  });

  it('any platform: concurrent binds of one place leave it with exactly one community; a deleted or expired holder frees it', async () => {
    const contenders = await Promise.all(Array.from({ length: 5 }, () => community('reddit')));
    const place = `r/seam_${Date.now()}`;
    const results = await Promise.all(
      contenders.map((c) =>
        bindExternal('reddit', place, { userId: c.user.id, communityId: c.community.id, role: 'moderated' }),
      ),
    );
    expect(results.filter((r) => r.bound)).toHaveLength(1);
    const winner = contenders[results.findIndex((r) => r.bound)];
    expect(results.filter((r) => !r.bound).map((r) => !r.bound && r.holder?.communityId)).toEqual(
      Array(contenders.length - 1).fill(winner.community.id),
    );
    expect(await boundCommunity('reddit', place)).toMatchObject({ communityId: winner.community.id });

    // Through the domain: refused while the holder lives, bound once it is deleted.
    const latecomer = contenders.find((c) => c !== winner)!;
    const record = (await getCommunity(latecomer.user.id, latecomer.community.id, true))!;
    expect(await bindModeratedPlace(record, place)).toBe('taken');
    expect((await api.call('DELETE', `${BASE}/communities/${winner.community.id}`, { key: winner.key })).status).toBe(
      204,
    );
    expect(await bindModeratedPlace(record, place)).toBe('bound');
    expect(await boundCommunity('reddit', place)).toMatchObject({ communityId: latecomer.community.id });
    expect((await status(latecomer.key, latecomer.community.id)).platform.chat_id).toBe(place);
  });
});
