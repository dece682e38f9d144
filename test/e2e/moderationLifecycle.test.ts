/**
 * What happens on the platforms when a community stops being monitored while some of its calls are
 * still on their way (waiting out a platform's rate limit): suspended (a renewal failed for lack of
 * credits, "monitoring stops"), expired, deleted, moved to another platform by a PUT of `type`, or
 * switched to observe mode. The real Telegram and Crisp adapters run against the recording
 * stand-ins; communities change state through the API or the renewal sweep's own writes.
 */
import { randomUUID } from 'node:crypto';
import { DELIVERY_CORE } from '#shared/domain/moderation/deliveryCore';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  expireAtPeriodEndItem,
  getCommunity,
  suspendForNonPaymentItem,
  type CommunityRecord,
} from '#shared/store/communitiesRepo';
import { writeTogether } from '#shared/store/transactions';
import { removeUnverifiedMembers } from '#shared/platforms/telegram/captcha';
import { UNSILENCED } from '#shared/platforms/telegram/calls';
import { startTestApi } from '#test/support/api';
import { useOwnTable } from '#test/support/ownTable';
import { startTelegramStandIn } from '#bin/standIns/telegramStandIn';
import { signCrispHookRequest, startCrispStandIn } from '#bin/standIns/crispStandIn';

const TOKEN = '7000:lifecycle-bot-token';
const SECRET = 'lifecycle-webhook-secret';
const telegram = await startTelegramStandIn(TOKEN);
const CRISP = {
  identifier: 'crisp-lifecycle-identifier',
  key: 'crisp-lifecycle-key',
  secret: 'crisp-lifecycle-secret',
};
const crisp = await startCrispStandIn(CRISP.identifier, CRISP.key);
const ENV = {
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_WEBHOOK_SECRET: SECRET,
  TELEGRAM_API_BASE: telegram.apiBase,
  CRISP_PLUGIN_ID: 'plugin-urn',
  CRISP_TOKEN_IDENTIFIER: CRISP.identifier,
  CRISP_TOKEN_KEY: CRISP.key,
  CRISP_HOOK_SECRET: CRISP.secret,
  CRISP_API_BASE: crisp.apiBase,
};
const saved = Object.fromEntries(Object.keys(ENV).map((name) => [name, process.env[name]]));
Object.assign(process.env, ENV);
// The captcha sweep it runs takes every pending captcha of its table that is due: other files' too on the shared table.
await useOwnTable('outreach-lifecycle');
const api = await startTestApi();
afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await telegram.close();
  await crisp.close();
});

const BASE = '/integrations/moderation';
const SPAM = 'Connect your wallet here to claim the bonus';
const ADMIN = { id: 10, is_bot: false, first_name: 'Ada', username: 'ada_admin' };
const SPAMMER = { id: 66, is_bot: false, first_name: 'Free', username: 'free_airdrops' };
let chatSeq = -1002000000000;
let updateSeq = 70_000;
let messageSeq = 700;
let fingerprint = 171_000_000_000_000;

const settle = () => api.ports.queue.drained();
/** Everything visible has run; a delivery told to wait by the platform is still waiting. */
const waiting = () => api.ports.queue.settled();
const status = async (key: string, id: string) =>
  (await api.call('GET', `${BASE}/status?community_id=${id}`, { key })).body;

const postTelegram = (update: object) =>
  api.call('POST', `${BASE}/telegram`, { body: update, headers: { 'x-telegram-bot-api-secret-token': SECRET } });
const say = (chat: { id: number }, from: object, text: string) => ({
  update_id: ++updateSeq,
  message: { message_id: ++messageSeq, date: Math.floor(Date.now() / 1000), chat, from, text },
});

/** A connected Telegram community. */
async function telegramCommunity() {
  const { key, user } = await api.newUser({ credits: 5000 });
  const community = (
    await api.call('POST', `${BASE}/communities`, {
      key,
      body: { name: 'Acme chat', project_name: 'Acme', type: 'telegram' },
    })
  ).body;
  const chat = { id: --chatSeq, type: 'supergroup' as const, title: 'Acme' };
  telegram.setMemberStatus(chat.id, ADMIN.id, 'administrator');
  expect((await postTelegram(say(chat, ADMIN, `/activate ${community.activation_token}`))).status).toBe(200);
  await settle();
  expect((await status(key, community.id)).status).toBe('connected');
  telegram.reset();
  return { key, userId: user.id as string, community, chat };
}

/**
 * The renewal sweep's own guarded writes, applied to this one community: a sweep run ahead of time
 * would also renew, suspend or expire the communities of other test files in the shared table.
 */
async function sweepWrite(userId: string, id: string, item: typeof suspendForNonPaymentItem) {
  const community = await getCommunity(userId, id, true);
  expect(community).toBeDefined();
  await writeTogether({ community: item(community as CommunityRecord, new Date().toISOString()) });
}

/** The lifecycle changes, each through the API or the renewal sweep's write. */
const CHANGES: Record<string, (key: string, userId: string, id: string) => Promise<void>> = {
  // A renewal failed for lack of credits.
  suspended: (_key, userId, id) => sweepWrite(userId, id, suspendForNonPaymentItem),
  // Auto-renew off, and the period ended.
  expired: async (key, userId, id) => {
    expect(
      (await api.call('POST', `${BASE}/communities/${id}/auto-renew`, { key, body: { auto_renew: false } })).status,
    ).toBe(200);
    await sweepWrite(userId, id, expireAtPeriodEndItem);
  },
  deleted: async (key, _userId, id) => {
    expect((await api.call('DELETE', `${BASE}/communities/${id}`, { key })).status).toBe(204);
  },
  'moved to another platform (PUT type)': async (key, _userId, id) => {
    expect((await api.call('PUT', `${BASE}/communities/${id}`, { key, body: { type: 'discord' } })).status).toBe(200);
  },
  'switched to observe': async (key, _userId, id) => {
    expect((await api.call('PUT', `${BASE}/communities/${id}/rules`, { key, body: { mode: 'observe' } })).status).toBe(
      200,
    );
  },
};
const EXPECTED_STATE: Record<string, string | null> = {
  suspended: 'suspended',
  expired: 'expired',
  deleted: null,
  'moved to another platform (PUT type)': 'pending_activation',
  'switched to observe': 'connected',
};

beforeEach(() => {
  telegram.reset();
  crisp.reset();
});

describe('calls still waiting when a community stops being monitored', () => {
  it.each(Object.keys(CHANGES))(
    'telegram: a mute waiting out a 429 is not applied once the community is %s',
    async (change) => {
      const { key, userId, community, chat } = await telegramCommunity();
      telegram.failNext('deleteMessage', {
        error_code: 429,
        description: 'Too Many Requests: retry after 2',
        retry_after: 2,
      });
      await postTelegram(say(chat, SPAMMER, SPAM));
      await waiting();
      // The mute's first call met the limit; the rest of the delivery waits two seconds.
      expect(telegram.actions().map((c) => c.method)).toEqual(['deleteMessage']);

      await CHANGES[change](key, userId, community.id);
      await settle();
      // Nothing more reached Telegram: neither the retried deleteMessage nor the restriction.
      expect(telegram.actions().map((c) => c.method)).toEqual(['deleteMessage']);

      const state = EXPECTED_STATE[change];
      if (state === null) {
        expect((await api.call('GET', `${BASE}/communities/${community.id}`, { key })).status).toBe(404);
        return;
      }
      const st = await status(key, community.id);
      expect(st.status).toBe(state);
      expect(st.audit_logs[0]).toMatchObject({ action: 'mute', rule: 'scam_phrase' });
      expect(st.audit_logs[0].delivery.status).toBe(change === 'switched to observe' ? 'observe' : 'failed');
      if (change !== 'switched to observe') expect(st.audit_logs[0].delivery.error).toMatch(/not sent/);
    },
  );

  it('crisp: a block waiting out a 429 is not applied once the community is suspended', async () => {
    const { key, user } = await api.newUser({ credits: 5000 });
    const community = (
      await api.call('POST', `${BASE}/communities`, {
        key,
        body: { name: 'Acme', project_name: 'Acme', type: 'crisp' },
      })
    ).body;
    const websiteId = randomUUID();
    const session = `session_${randomUUID()}`;
    const hook = (event: string, data: Record<string, unknown>) =>
      api.call(
        'POST',
        `${BASE}/crisp`,
        signCrispHookRequest(CRISP.secret, {
          website_id: websiteId,
          event,
          data: { website_id: websiteId, session_id: session, type: 'text', origin: 'chat', ...data },
          timestamp: Date.now(),
        }),
      );
    await hook('message:received', {
      from: 'operator',
      content: `/activate ${community.activation_token}`,
      fingerprint: ++fingerprint,
      user: { nickname: 'Ada', user_id: 'operator-1' },
      timestamp: Date.now(),
    });
    await settle();
    expect((await status(key, community.id)).status).toBe('connected');
    crisp.reset();

    crisp.limitNext(/\/message\/\d+$/, 429, 2);
    await hook('message:send', {
      from: 'user',
      content: SPAM,
      fingerprint: ++fingerprint,
      user: { nickname: 'Visitor', user_id: session },
      timestamp: Date.now(),
    });
    await waiting();
    expect(crisp.calls.filter((c) => c.method !== 'POST').map((c) => c.method)).toEqual(['DELETE']);

    await CHANGES.suspended(key, user.id, community.id);
    await settle();
    expect(crisp.calls.filter((c) => c.method !== 'POST').map((c) => c.method)).toEqual(['DELETE']);
    expect(crisp.isBlocked(websiteId, session)).toBe(false);
    const st = await status(key, community.id);
    expect(st.status).toBe('suspended');
    expect(st.audit_logs[0].delivery).toMatchObject({ status: 'failed' });
  });
});

describe('the captcha sweep of a community no longer monitored', () => {
  it.each(['suspended', 'deleted'])(
    'a community %s since the join removes no one: the captcha restriction is lifted and its prompt deleted',
    async (change) => {
      const { key, userId, community, chat } = await telegramCommunity();
      expect(
        (
          await api.call('PUT', `${BASE}/communities/${community.id}/rules`, {
            key,
            body: { captcha: { enabled: true, timeout_seconds: 60 } },
          })
        ).status,
      ).toBe(200);
      const member = { id: 4242 + updateSeq, is_bot: false, first_name: 'Sam' };
      const joinedAt = Math.floor(Date.now() / 1000);
      await postTelegram({
        update_id: ++updateSeq,
        message: { message_id: ++messageSeq, date: joinedAt, chat, from: member, new_chat_members: [member] },
      });
      await settle();
      expect(telegram.actions().map((c) => c.method)).toEqual(['restrictChatMember', 'sendMessage']);
      const prompt = telegram.sent.find((m) => m.chat_id === chat.id && m.text.startsWith('Welcome'))!.message_id;
      telegram.reset();

      await CHANGES[change](key, userId, community.id);
      await removeUnverifiedMembers(DELIVERY_CORE, new Date((joinedAt + 61) * 1000));
      await settle();
      const inChat = telegram.actions().filter((c) => c.body.chat_id === chat.id);
      expect(inChat.map((c) => c.method)).not.toContain('banChatMember');
      expect(inChat).toEqual([
        {
          method: 'restrictChatMember',
          body: {
            chat_id: chat.id,
            user_id: member.id,
            permissions: UNSILENCED,
            use_independent_chat_permissions: true,
          },
        },
        { method: 'deleteMessage', body: { chat_id: chat.id, message_id: prompt } },
      ]);
    },
  );
});

describe('activation of a community that is not paid', () => {
  /** A Telegram community not bound yet, suspended or expired by the renewal sweep's own write. */
  async function unpaid(state: 'suspended' | 'expired') {
    const { key, user } = await api.newUser({ credits: 5000 });
    const community = (
      await api.call('POST', `${BASE}/communities`, {
        key,
        body: { name: 'Acme chat', project_name: 'Acme', type: 'telegram' },
      })
    ).body;
    await CHANGES[state](key, user.id, community.id);
    return { key, community };
  }

  it.each([
    {
      state: 'suspended' as const,
      says: 'binds the group but says moderation is off until paid',
      text: 'This group is bound, but moderation is off while the community is suspended (its renewal is unpaid): it starts once the renewal is paid.',
      bound: { status: 'suspended', connection_state: 'connected' },
    },
    {
      state: 'expired' as const,
      says: 'binds nothing and says it has expired',
      text: 'This community has expired and moderates nothing any more: provision a new community and use its token.',
      bound: { status: 'expired', platform: { chat_id: null } },
    },
  ])('telegram: /activate of a $state community $says', async ({ state, text, bound }) => {
    const { key, community } = await unpaid(state);
    const chat = { id: --chatSeq, type: 'supergroup' as const, title: 'Acme' };
    telegram.setMemberStatus(chat.id, ADMIN.id, 'administrator');
    await postTelegram(say(chat, ADMIN, `/activate ${community.activation_token}`));
    await settle();
    expect(telegram.actions()).toEqual([{ method: 'sendMessage', body: { chat_id: chat.id, text } }]);
    expect(await status(key, community.id)).toMatchObject(bound);
  });

  it('crisp: an operator /activate of an expired community binds nothing; of a suspended one, says moderation is off', async () => {
    for (const state of ['expired', 'suspended'] as const) {
      const { key, user } = await api.newUser({ credits: 5000 });
      const community = (
        await api.call('POST', `${BASE}/communities`, {
          key,
          body: { name: 'Acme', project_name: 'Acme', type: 'crisp' },
        })
      ).body;
      await CHANGES[state](key, user.id, community.id);
      const websiteId = randomUUID();
      const session = `session_${randomUUID()}`;
      crisp.reset();
      await api.call(
        'POST',
        `${BASE}/crisp`,
        signCrispHookRequest(CRISP.secret, {
          website_id: websiteId,
          event: 'message:received',
          data: {
            website_id: websiteId,
            session_id: session,
            type: 'text',
            origin: 'chat',
            from: 'operator',
            content: `/activate ${community.activation_token}`,
            fingerprint: ++fingerprint,
            user: { nickname: 'Ada', user_id: 'operator-1' },
            timestamp: Date.now(),
          },
          timestamp: Date.now(),
        }),
      );
      await settle();
      expect(crisp.calls.map((c) => c.body?.content)).toEqual([
        state === 'expired'
          ? 'This community has expired and moderates nothing any more: provision a new community and use its token.'
          : 'This website is bound, but moderation is off while the community is suspended (its renewal is unpaid): it starts once the renewal is paid.',
      ]);
      expect((await status(key, community.id)).platform.chat_id).toBe(state === 'expired' ? null : websiteId);
    }
  });
});
