/**
 * Timed actions end relative to when they are applied: a mute that reaches Telegram late (its backlog,
 * a retry, a restart) still lasts its full length from then (a past until_date would be forever), and
 * one whose whole length is over before it could be applied is not applied at all.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#shared/adapters/clock';
import { startTestApi } from '#test/support/api';
import { startTelegramStandIn } from '#bin/standIns/telegramStandIn';
import { SILENCED } from '#shared/platforms/telegram/calls';
import { MUTE_SECONDS } from '#shared/platforms/contract';
import { PLATFORMS } from '#shared/platforms/registry';
import { COMMUNITY_TYPES, type CommunityType } from '#shared/domain/moderation/communityTypes';

const TOKEN = '7200:late-bot-token';
const SECRET = 'late-webhook-secret';
const telegram = await startTelegramStandIn(TOKEN);
const saved = { ...process.env };
Object.assign(process.env, {
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_WEBHOOK_SECRET: SECRET,
  TELEGRAM_API_BASE: telegram.apiBase,
});
const DATE = 1_795_000_000;
const clock = new ManualClock(new Date(DATE * 1000));
const api = await startTestApi({ clock });
afterAll(async () => {
  for (const name of ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET', 'TELEGRAM_API_BASE']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await telegram.close();
});
beforeEach(() => {
  telegram.reset();
  clock.set(new Date(DATE * 1000));
});

const BASE = '/integrations/moderation';
const ADMIN = { id: 10, is_bot: false, first_name: 'Ada' };
const SPAMMER = { id: 66, is_bot: false, first_name: 'Free', username: 'free_airdrops' };
let chatSeq = -1003000000000;
let updateSeq = 1;
let messageSeq = 1;
const post = (update: object) =>
  api.call('POST', `${BASE}/telegram`, { body: update, headers: { 'x-telegram-bot-api-secret-token': SECRET } });
const say = (chat: object, from: object, text: string, date = DATE) => ({
  update_id: ++updateSeq,
  message: { message_id: ++messageSeq, date, chat, from, text },
});
const settle = () => api.ports.queue.drained();
const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

async function activatedGroup() {
  const { key } = await api.newUser({ credits: 5000 });
  const community = (
    await api.call('POST', `${BASE}/communities`, {
      key,
      body: { name: 'Late', project_name: 'Acme', type: 'telegram' },
    })
  ).body;
  const chat = { id: --chatSeq, type: 'supergroup' as const, title: 'Acme' };
  telegram.setMemberStatus(chat.id, ADMIN.id, 'administrator');
  await post(say(chat, ADMIN, `/activate ${community.activation_token}`));
  await settle();
  telegram.reset();
  return { key, community, chat };
}

describe('a late mute', () => {
  it('lasts its full length from when it is applied, not from when the message was written', async () => {
    const { chat } = await activatedGroup();
    // Telegram's backlog: the update arrives 20 minutes after the message was written.
    clock.advance(20 * 60 * 1000);
    const update = say(chat, SPAMMER, 'Connect your wallet here to claim the bonus');
    await post(update);
    await settle();
    expect(telegram.calls).toEqual([
      { method: 'deleteMessage', body: { chat_id: chat.id, message_id: update.message.message_id } },
      {
        method: 'restrictChatMember',
        body: {
          chat_id: chat.id,
          user_id: SPAMMER.id,
          permissions: SILENCED,
          use_independent_chat_permissions: true,
          until_date: nowSeconds() + MUTE_SECONDS,
        },
      },
    ]);
  });

  it('is not applied once its whole length is over (a past until_date would mute for ever); the message is still deleted', async () => {
    const { key, community, chat } = await activatedGroup();
    clock.advance((MUTE_SECONDS + 60) * 1000);
    const update = say(chat, SPAMMER, 'Connect your wallet here to claim the bonus');
    await post(update);
    await settle();
    expect(telegram.calls).toEqual([
      { method: 'deleteMessage', body: { chat_id: chat.id, message_id: update.message.message_id } },
    ]);
    expect(
      (await api.call('GET', `${BASE}/status?community_id=${community.id}`, { key })).body.audit_logs[0],
    ).toMatchObject({ action: 'mute', delivery: { status: 'delivered', error: null } });
  });

  /** Each platform's own target of a decision (a new platform does not compile until it has one). */
  const MUTE_TARGETS: { [K in CommunityType]: object } = {
    telegram: { chatId: -1, messageId: 1, userId: 2, at: DATE },
    discord: { guildId: 'g', userId: '2' },
    reddit: {
      communityId: 'c',
      subreddit: 'acme',
      fullname: 't3_abc',
      author: 'u1',
      writtenAt: new Date().toISOString(),
      rule: 'scam_phrase',
      reason: 'scam',
    },
    x: { postId: '1860000000000000001', authorId: '4242' },
    crisp: { websiteId: 'w', sessionId: 'session_1', fingerprint: 1, at: new Date().toISOString() },
  };

  it('no platform plans a mute with an end fixed in advance: every timed call carries its length for the runner', () => {
    for (const type of COMMUNITY_TYPES) {
      const decisions = PLATFORMS[type].decisions as Record<
        string,
        (t: unknown, text: { warning: string }) => { body?: object; timed?: unknown }[]
      > | null;
      if (!decisions) continue;
      for (const call of decisions.mute(MUTE_TARGETS[type], { warning: 'w' })) {
        expect(
          Object.keys(call.body ?? {}).filter((k) => /until|expir|duration|ends?_at/i.test(k)),
          `${type} plans an absolute end`,
        ).toEqual([]);
      }
    }
  });
});
