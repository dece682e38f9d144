import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startTelegramStandIn } from '#bin/standIns/telegramStandIn';
import { startDiscordStandIn } from '#bin/standIns/discordStandIn';

const run = promisify(execFile);
const telegram = await startTelegramStandIn('900:tok');
const discord = await startDiscordStandIn('dbot');
afterAll(async () => {
  await telegram.close();
  await discord.close();
});

const admin = (env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], {
    env: { ...process.env, ...env },
    timeout: 60_000,
  });

describe('npm run admin: platform set-up', () => {
  it('telegram-webhook calls setWebhook with the secret and the update types, and sets the command list', async () => {
    const out = await admin(
      { TELEGRAM_BOT_TOKEN: '900:tok', TELEGRAM_WEBHOOK_SECRET: 'sekret', TELEGRAM_API_BASE: telegram.apiBase },
      'telegram-webhook',
      '--url',
      'https://abc.execute-api.eu-west-1.amazonaws.com/prod/api/v1/',
    );
    expect(out.stdout).toContain(
      'Telegram webhook set to https://abc.execute-api.eu-west-1.amazonaws.com/prod/api/v1/integrations/moderation/telegram',
    );
    // It talks to Telegram only: no database is opened, nor said to be.
    expect(out.stderr).not.toContain('Using the');
    expect(telegram.calls[0]).toEqual({
      method: 'setWebhook',
      body: {
        url: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/api/v1/integrations/moderation/telegram',
        secret_token: 'sekret',
        allowed_updates: ['message', 'callback_query'],
      },
    });
    expect(telegram.calls[1].method).toBe('setMyCommands');
    expect(telegram.calls[1].body.commands.map((c: { command: string }) => c.command)).toEqual(['activate', 'alerts']);
  });

  it('telegram-webhook refuses a missing or bad --url, and missing credentials, with exit code 1', async () => {
    await expect(
      admin(
        { TELEGRAM_BOT_TOKEN: '900:tok', TELEGRAM_WEBHOOK_SECRET: 's', TELEGRAM_API_BASE: telegram.apiBase },
        'telegram-webhook',
        '--url',
        'not a url',
      ),
    ).rejects.toMatchObject({ code: 1 });
    await expect(
      admin(
        { TELEGRAM_BOT_TOKEN: '', TELEGRAM_WEBHOOK_SECRET: '', TELEGRAM_API_BASE: telegram.apiBase },
        'telegram-webhook',
        '--url',
        'https://x.example.com/api/v1',
      ),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('TELEGRAM_BOT_TOKEN') });
  });

  it('discord-commands overwrites the global commands with /activate token:<t> and /alerts', async () => {
    const out = await admin(
      { DISCORD_APPLICATION_ID: '1111', DISCORD_BOT_TOKEN: 'dbot', DISCORD_API_BASE: discord.apiBase },
      'discord-commands',
    );
    expect(out.stdout).toContain('Registered 2 Discord commands for application 1111');
    expect(out.stderr).not.toContain('Using the');
    expect(discord.calls).toHaveLength(1);
    expect(discord.calls[0]).toMatchObject({ method: 'PUT', path: '/applications/1111/commands' });
    expect(discord.calls[0].body).toEqual([
      {
        name: 'activate',
        description: expect.any(String),
        options: [{ type: 3, name: 'token', description: expect.any(String), required: true }],
        default_member_permissions: '32',
        contexts: [0],
      },
      { name: 'alerts', description: expect.any(String), default_member_permissions: '32', contexts: [0] },
    ]);
  });
});
