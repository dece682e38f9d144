import { afterAll, describe, expect, it } from 'vitest';
import { DiscordRest } from '#shared/platforms/discord/rest';
import { TelegramBotApi } from '#shared/platforms/telegram/botApi';
import { isTransient } from '#shared/platforms/result';
import { callPlatform } from '#shared/platforms/port';
import { installPorts } from '#shared/adapters/ports';
import { EnvSecrets } from '#shared/adapters/secrets';
import { startTelegramStandIn } from '#bin/standIns/telegramStandIn';
import { startDiscordStandIn } from '#bin/standIns/discordStandIn';

const telegram = await startTelegramStandIn('123:tok');
const discord = await startDiscordStandIn('dtok');
afterAll(async () => {
  await telegram.close();
  await discord.close();
});

describe('TelegramBotApi', () => {
  it('posts JSON to {base}/bot{token}/{method} and returns the result', async () => {
    const api = new TelegramBotApi('123:tok', telegram.apiBase);
    const out = await api.call('sendMessage', { chat_id: -100, text: 'hi' });
    expect(out).toMatchObject({ ok: true, result: { text: 'hi', chat: { id: -100 } } });
    expect(telegram.calls.at(-1)).toEqual({ method: 'sendMessage', body: { chat_id: -100, text: 'hi' } });
  });

  it("reports a 429 with Telegram's retry_after, and a refusal as final with its description", async () => {
    const api = new TelegramBotApi('123:tok', telegram.apiBase);
    telegram.failNext('deleteMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 7',
      retry_after: 7,
    });
    telegram.failNext('deleteMessage', { error_code: 400, description: 'Bad Request: message to delete not found' });
    const limited = await api.call('deleteMessage', { chat_id: 1, message_id: 2 });
    expect(limited).toEqual({
      ok: false,
      status: 429,
      error: 'deleteMessage: Too Many Requests: retry after 7',
      retryAfterSeconds: 7,
    });
    expect(isTransient(limited)).toBe(true);
    const refused = await api.call('deleteMessage', { chat_id: 1, message_id: 2 });
    expect(refused).toEqual({
      ok: false,
      status: 400,
      error: 'deleteMessage: Bad Request: message to delete not found',
    });
    expect(isTransient(refused)).toBe(false);
  });

  it('a wrong token is a 401 refusal', async () => {
    expect(await new TelegramBotApi('bad', telegram.apiBase).call('getMe', {})).toMatchObject({
      ok: false,
      status: 401,
    });
  });

  it('an unreachable base is a transient network failure', async () => {
    const out = await new TelegramBotApi('123:tok', 'http://127.0.0.1:1').call('getMe', {});
    expect(out).toMatchObject({ ok: false, status: 0 });
    expect(isTransient(out)).toBe(true);
  });
});

describe('DiscordRest', () => {
  it('sends Authorization: Bot {token} and JSON, and reads a 429 retry_after', async () => {
    const api = new DiscordRest('dtok', discord.apiBase);
    discord.rateLimitNext(/auto-moderation/, 2.5);
    const limited = await api.request('GET', '/guilds/77/auto-moderation/rules');
    expect(limited).toMatchObject({ ok: false, status: 429, retryAfterSeconds: 2.5 });
    const listed = await api.request('GET', '/guilds/77/auto-moderation/rules');
    expect(listed).toEqual({ ok: true, result: [] });
    expect(
      await new DiscordRest('nope', discord.apiBase).request('GET', '/guilds/77/auto-moderation/rules'),
    ).toMatchObject({ ok: false, status: 401, error: expect.stringContaining('401: Unauthorized') });
  });
});

describe('credentials', () => {
  it('without credentials a call is not_configured and nothing is sent', async () => {
    installPorts({ secrets: new EnvSecrets() });
    const saved = process.env.TELEGRAM_BOT_TOKEN;
    delete process.env.TELEGRAM_BOT_TOKEN;
    const before = telegram.calls.length;
    expect(
      await callPlatform({ platform: 'telegram', method: 'deleteMessage', body: { chat_id: 1, message_id: 1 } }),
    ).toBe('not_configured');
    expect(await callPlatform({ platform: 'discord', method: 'GET', route: '/guilds/1/auto-moderation/rules' })).toBe(
      'not_configured',
    );
    expect(telegram.calls.length).toBe(before);
    if (saved !== undefined) process.env.TELEGRAM_BOT_TOKEN = saved;
  });
});
