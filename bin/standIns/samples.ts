/**
 * Sample requests as Telegram, Discord and Crisp send them to the service: a group message as a webhook
 * update, a slash command as a signed interaction, a chat message as a signed plugin hook. Ids are fixed (one sample group, one sample guild)
 * except message and update ids, which grow with the clock so every sample is a new message.
 */
import { createHmac, createPrivateKey, sign } from 'node:crypto';

/**
 * A sample: a POST to the local API as the platform would send it (`api`), or to the stand-in's
 * control route at the session's `control` address (`stand-in`: a polled platform's new item).
 */
export interface SampleRequest {
  to: 'api' | 'stand-in';
  path: string;
  headers: Record<string, string>;
  body: string;
}

export const SAMPLE_TELEGRAM = {
  chat: { id: -1001234567890, type: 'supergroup', title: 'Sample group' },
  /** Sends the slash commands; the stand-in answers getChatMember with "administrator" for them. */
  admin: { id: 10, is_bot: false, first_name: 'Ada', username: 'ada_admin' },
  /** Sends everything else: first seen with their first message, so the new-member rules apply. */
  member: { id: 42, is_bot: false, first_name: 'New', username: 'newbie' },
} as const;

export const SAMPLE_DISCORD = {
  guildId: '1300000000000000001',
  channelId: '1300000000000000002',
  user: { id: '1300000000000000003', username: 'owner' },
} as const;

/** Discord's Manage Server permission bit: the member running the sample commands has it. */
const MANAGE_GUILD = String(1 << 5);

const sequence = () => Date.now() % 1_000_000_000;

export function telegramUpdate(text: string, secret: string): SampleRequest {
  const id = sequence();
  const from = text.startsWith('/') ? SAMPLE_TELEGRAM.admin : SAMPLE_TELEGRAM.member;
  const update = {
    update_id: id,
    message: { message_id: id, date: Math.floor(Date.now() / 1000), chat: SAMPLE_TELEGRAM.chat, from, text },
  };
  return {
    to: 'api',
    path: '/integrations/moderation/telegram',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
    body: JSON.stringify(update),
  };
}

/** `/activate token:abc` becomes the command `activate` with the string option `token` = `abc`. */
export function discordInteraction(text: string, privateKeyPem: string, applicationId: string): SampleRequest {
  const [command = '', ...words] = text.trim().split(/\s+/);
  const options = words.flatMap((word) => {
    const colon = word.indexOf(':');
    return colon > 0 ? [{ name: word.slice(0, colon), type: 3, value: word.slice(colon + 1) }] : [];
  });
  const interaction = {
    id: String(BigInt(Date.now() - 1_420_070_400_000) << 22n),
    application_id: applicationId,
    type: 2,
    token: 'local-stand-in-interaction',
    version: 1,
    guild_id: SAMPLE_DISCORD.guildId,
    channel_id: SAMPLE_DISCORD.channelId,
    member: { user: SAMPLE_DISCORD.user, permissions: MANAGE_GUILD, roles: [] },
    data: { id: '1', name: command.replace(/^\//, ''), type: 1, options },
  };
  const body = JSON.stringify(interaction);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign(null, Buffer.from(timestamp + body), createPrivateKey(privateKeyPem)).toString('hex');
  return {
    to: 'api',
    path: '/integrations/moderation/discord/interactions',
    headers: {
      'content-type': 'application/json',
      'x-signature-ed25519': signature,
      'x-signature-timestamp': timestamp,
    },
    body,
  };
}

export const SAMPLE_CRISP = { websiteId: 'sample-website', sessionId: 'session_sample_visitor' } as const;

/**
 * A Crisp plugin hook: `/activate ...` as the website's operator would send it (`message:received`),
 * anything else as a visitor's message (`message:send`), signed as Crisp signs hooks.
 */
export function crispHook(text: string, hookSecret: string): SampleRequest {
  const fingerprint = sequence();
  const operator = text.startsWith('/');
  const data = {
    website_id: SAMPLE_CRISP.websiteId,
    session_id: SAMPLE_CRISP.sessionId,
    type: 'text',
    from: operator ? 'operator' : 'user',
    origin: 'chat',
    content: text,
    fingerprint,
    user: operator
      ? { nickname: 'Ada', user_id: 'operator-1' }
      : { nickname: 'Visitor 12', user_id: SAMPLE_CRISP.sessionId },
    timestamp: Date.now(),
  };
  const hook = {
    website_id: SAMPLE_CRISP.websiteId,
    event: operator ? 'message:received' : 'message:send',
    data,
    timestamp: Date.now(),
  };
  const timestamp = String(Date.now());
  const signature = createHmac('sha256', hookSecret)
    .update(`[${timestamp};${JSON.stringify(hook)}]`)
    .digest('hex');
  return {
    to: 'api',
    path: '/integrations/moderation/crisp',
    headers: {
      'content-type': 'application/json',
      'x-crisp-request-timestamp': timestamp,
      'x-crisp-signature': signature,
    },
    body: JSON.stringify(hook),
  };
}
