/**
 * Platform deliveries whose queue message was lost (a stopped local process, a worker that kept
 * crashing until the dead-letter queue): the scheduled sweep queues them again once they have been
 * quiet for a while, and the local runtime's start queues every pending one at once. The Telegram
 * Bot API is the recording stand-in.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#shared/adapters/clock';
import { installPorts } from '#shared/adapters/ports';
import { SILENCED } from '#shared/platforms/telegram/calls';
import { MUTE_SECONDS } from '#shared/platforms/contract';
import { requeueStalledDeliveries } from '#shared/domain/moderation/platformCallRunner';
import { startTestApi } from '#test/support/api';
import { losingQueue } from '#test/support/losingQueue';
import { useOwnTable } from '#test/support/ownTable';
import { startTelegramStandIn } from '#bin/standIns/telegramStandIn';

const TOKEN = '7100:operator-bot-token';
const SECRET = 'webhook-secret-recovery';
const telegram = await startTelegramStandIn(TOKEN);
const saved = { ...process.env };
process.env.TELEGRAM_BOT_TOKEN = TOKEN;
process.env.TELEGRAM_WEBHOOK_SECRET = SECRET;
process.env.TELEGRAM_API_BASE = telegram.apiBase;
// The sweep acts on every stalled delivery of its table: this file has a table of its own.
await useOwnTable('outreach-mod-deliveries');
const DATE = 1_795_000_000;
const clock = new ManualClock(new Date(DATE * 1000 + 1000));
const api = await startTestApi({ clock });
const queue = api.ports.queue;
afterAll(async () => {
  for (const name of ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET', 'TELEGRAM_API_BASE']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await telegram.close();
});
beforeEach(() => telegram.reset());

const BASE = '/integrations/moderation';
const MINUTE = 60_000;
const ADMIN = { id: 10, is_bot: false, first_name: 'Ada', username: 'ada_admin' };
const SPAMMER = { id: 66, is_bot: false, first_name: 'Free', username: 'free_airdrops' };
let chatSeq = -1002000000000;
let updateSeq = 9000;
let messageSeq = 100;

const post = (update: object) =>
  api.call('POST', `${BASE}/telegram`, { body: update, headers: { 'x-telegram-bot-api-secret-token': SECRET } });
const say = (chat: { id: number; type: string }, from: object, text: string) => {
  const update = {
    update_id: ++updateSeq,
    message: { message_id: ++messageSeq, date: Math.floor(clock.now().getTime() / 1000), chat, from, text },
  };
  return { update, messageId: messageSeq };
};
const status = async (key: string, id: string) =>
  (await api.call('GET', `${BASE}/status?community_id=${id}`, { key })).body;

async function activatedGroup() {
  const { key } = await api.newUser({ credits: 5000 });
  const community = (
    await api.call('POST', `${BASE}/communities`, {
      key,
      body: { name: 'Acme chat', project_name: 'Acme', type: 'telegram' },
    })
  ).body;
  const chat = { id: --chatSeq, type: 'supergroup' as const, title: 'Acme' };
  telegram.setMemberStatus(chat.id, ADMIN.id, 'administrator');
  expect((await post(say(chat, ADMIN, `/activate ${community.activation_token}`).update)).status).toBe(200);
  await queue.drained();
  telegram.reset();
  return { key, community, chat };
}

/** Spam whose mute is planned while every queue message is lost. */
async function spamWithLostMessage(chat: { id: number; type: string }) {
  installPorts({ queue: losingQueue(queue, 0) });
  try {
    const { update, messageId } = say(chat, SPAMMER, 'Connect your wallet here to claim the bonus');
    expect((await post(update)).status).toBe(200);
    return messageId;
  } finally {
    installPorts({ queue });
  }
}

const muteCalls = (chatId: number, messageId: number) => [
  { method: 'deleteMessage', body: { chat_id: chatId, message_id: messageId } },
  // A mute lasts its length from when it is sent (the clock stands still while the queue drains).
  {
    method: 'restrictChatMember',
    body: {
      chat_id: chatId,
      user_id: SPAMMER.id,
      permissions: SILENCED,
      use_independent_chat_permissions: true,
      until_date: Math.floor(clock.now().getTime() / 1000) + MUTE_SECONDS,
    },
  },
];

describe('platform deliveries whose queue message was lost', () => {
  it('the scheduled sweep queues a delivery that stayed pending, once, and it is carried out', async () => {
    const { key, community, chat } = await activatedGroup();
    const messageId = await spamWithLostMessage(chat);
    await queue.drained();
    expect(telegram.calls).toEqual([]);
    expect((await status(key, community.id)).audit_logs[0]).toMatchObject({
      action: 'mute',
      delivery: { status: 'pending' },
    });

    // Quiet for a minute only: it may still be on its way.
    clock.advance(MINUTE);
    expect((await requeueStalledDeliveries()).requeued).toBe(0);

    clock.advance(30 * MINUTE);
    const [first, second] = await Promise.all([requeueStalledDeliveries(), requeueStalledDeliveries()]);
    expect(first.requeued + second.requeued).toBe(1);
    await queue.drained();
    expect(telegram.calls).toEqual(muteCalls(chat.id, messageId));
    expect((await status(key, community.id)).audit_logs[0]).toMatchObject({
      action: 'mute',
      delivery: { status: 'delivered', error: null },
    });

    // Delivered: it left the sweep's index.
    clock.advance(60 * MINUTE);
    expect(await requeueStalledDeliveries()).toEqual({ stalled: 0, requeued: 0 });
    await queue.drained();
    expect(telegram.calls).toHaveLength(2);
  });

  it("a delivery waiting out Telegram's retry_after is not taken for stalled before the wait is over", async () => {
    const { key, community, chat } = await activatedGroup();
    telegram.failNext('deleteMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 3000',
      retry_after: 3000,
    });
    // The first attempt goes through (and meets the 429); the delayed retry is lost.
    installPorts({ queue: losingQueue(queue, 1) });
    let messageId: number;
    try {
      const said = say(chat, SPAMMER, 'Connect your wallet here to claim the bonus');
      messageId = said.messageId;
      await post(said.update);
      await queue.drained();
    } finally {
      installPorts({ queue });
    }
    expect(telegram.calls.map((c) => c.method)).toEqual(['deleteMessage']);
    telegram.reset();
    // Within the 50-minute wait (plus the quiet time) it is left alone.
    clock.advance(40 * MINUTE);
    expect((await requeueStalledDeliveries()).requeued).toBe(0);
    expect((await status(key, community.id)).audit_logs[0]).toMatchObject({ delivery: { status: 'pending' } });
    clock.advance(40 * MINUTE);
    expect((await requeueStalledDeliveries()).requeued).toBe(1);
    await queue.drained();
    // 80 minutes after the message its one-hour mute is over: the message is deleted, no one is muted.
    expect(telegram.calls).toEqual(muteCalls(chat.id, messageId).slice(0, 1));
    expect((await status(key, community.id)).audit_logs[0]).toMatchObject({ delivery: { status: 'delivered' } });
  });

  it("the local runtime's start (resume) queues every pending delivery at once", async () => {
    const { key, community, chat } = await activatedGroup();
    const messageId = await spamWithLostMessage(chat);
    await queue.drained();
    expect(telegram.calls).toEqual([]);
    expect((await requeueStalledDeliveries({ resume: true })).requeued).toBeGreaterThanOrEqual(1);
    await queue.drained();
    expect(telegram.calls).toEqual(expect.arrayContaining(muteCalls(chat.id, messageId)));
    expect((await status(key, community.id)).audit_logs[0]).toMatchObject({
      action: 'mute',
      delivery: { status: 'delivered' },
    });
  });
});
