/**
 * One moderated message on each platform, for the cost suite, through the recording stand-ins the
 * tests and `npm start -- --stand-ins` use and the real adapters: a community is created and
 * activated as a customer would, then each `message()` is one scam the service acts on, and resolves
 * once the platform has received the call it causes. Telegram and Crisp push each message to a
 * webhook; Reddit and X are polled (the minute's schedule, its shards on the queue); Discord's own
 * AutoMod acts, and the service reads the execution back from the audit log (POST /sync).
 */
import { generateKeyPairSync } from 'node:crypto';
import { startTelegramStandIn } from '#bin/standIns/telegramStandIn';
import { startCrispStandIn } from '#bin/standIns/crispStandIn';
import { nextSnowflake, startDiscordStandIn } from '#bin/standIns/discordStandIn';
import { startXStandIn } from '#bin/standIns/xStandIn';
import { crispHook, discordInteraction, SAMPLE_DISCORD, SAMPLE_TELEGRAM, telegramUpdate } from '../standIns/samples';
import { reloadConfig } from '#shared/config/config';
import { runPollSchedule } from '../local/runtime';
import type { BenchContext } from './harness';
import { startBenchReddit } from './redditStand';

const BASE = '/integrations/moderation';
const SCAM = 'Connect your wallet to claim the airdrop at acme-drop.xyz';

export interface PlatformMessage {
  platform: string;
  /** How the message reaches the service, for the table's note. */
  path: string;
  /** One scam message, resolved when the platform has received the service's call about it. */
  message(i: number): Promise<void>;
  close(): Promise<void>;
}

const until = async (done: () => boolean, what: string) => {
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
};

/**
 * Sets variables for the platform adapters and gives back a function that restores the earlier values.
 * The configuration is parsed again both times: it is kept once read, and the adapters' API bases come from it.
 */
function useEnv(env: Record<string, string>): () => void {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  reloadConfig();
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    reloadConfig();
  };
}

async function createCommunity({ call }: BenchContext, type: string): Promise<{ id: string; token: string }> {
  const c = await call('POST', `${BASE}/communities`, {
    body: { name: `Cost ${type}`, project_name: 'Cost', type },
    expect: 201,
  });
  return { id: c.id, token: c.activation_token };
}

async function send(baseUrl: string, request: { path: string; headers: Record<string, string>; body: string }) {
  const res = await fetch(`${baseUrl}${request.path}`, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${request.path} answered ${res.status}: ${text.slice(0, 200)}`);
  return text;
}

/** Sample ids come from the clock's millisecond: two samples never share one. */
const nextMillisecond = () => new Promise((r) => setTimeout(r, 2));

async function telegram(ctx: BenchContext): Promise<PlatformMessage> {
  const token = '7000000000:cost-bench-token';
  const stand = await startTelegramStandIn(token);
  stand.setMemberStatus(SAMPLE_TELEGRAM.chat.id, SAMPLE_TELEGRAM.admin.id, 'administrator');
  const secret = 'cost-bench-secret';
  const restore = useEnv({
    TELEGRAM_BOT_TOKEN: token,
    TELEGRAM_WEBHOOK_SECRET: secret,
    TELEGRAM_API_BASE: stand.apiBase,
  });
  const community = await createCommunity(ctx, 'telegram');
  await send(ctx.baseUrl, telegramUpdate(`/activate ${community.token}`, secret));
  await ctx.ports.queue.settled();
  return {
    platform: 'telegram',
    path: 'webhook update',
    async message(i) {
      await nextMillisecond();
      const request = telegramUpdate(SCAM, secret);
      // A new member each time, so every message meets the same rules (not a repeat offender's).
      const update = JSON.parse(request.body);
      update.message.from = { ...update.message.from, id: 9000 + i, username: `spammer${i}` };
      await send(ctx.baseUrl, { ...request, body: JSON.stringify(update) });
      const messageId = update.message.message_id;
      await until(
        () => stand.calls.some((c) => c.method === 'deleteMessage' && c.body?.message_id === messageId),
        'Telegram deleteMessage',
      );
    },
    close: async () => {
      restore();
      await stand.close();
    },
  };
}

async function crisp(ctx: BenchContext): Promise<PlatformMessage> {
  const [identifier, key, hookSecret] = ['cost-identifier', 'cost-key', 'cost-hook-secret'];
  const stand = await startCrispStandIn(identifier, key);
  const restore = useEnv({
    CRISP_PLUGIN_ID: 'cost-plugin',
    CRISP_TOKEN_IDENTIFIER: identifier,
    CRISP_TOKEN_KEY: key,
    CRISP_HOOK_SECRET: hookSecret,
    CRISP_API_BASE: stand.apiBase,
  });
  const community = await createCommunity(ctx, 'crisp');
  await send(ctx.baseUrl, crispHook(`/activate ${community.token}`, hookSecret));
  await ctx.ports.queue.settled();
  return {
    platform: 'crisp',
    path: 'plugin hook',
    async message() {
      await nextMillisecond();
      const before = stand.calls.length;
      const request = crispHook(SCAM, hookSecret);
      const fingerprint = String(JSON.parse(request.body).data.fingerprint);
      await send(ctx.baseUrl, request);
      await until(
        () =>
          stand.calls.slice(before).some((c) => c.method === 'DELETE' && String(c.path ?? '').includes(fingerprint)),
        'Crisp message removal',
      );
    },
    close: async () => {
      restore();
      await stand.close();
    },
  };
}

async function discord(ctx: BenchContext): Promise<PlatformMessage> {
  const token = 'cost-bench-bot-token';
  const stand = await startDiscordStandIn(token);
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const applicationId = '100000000000000001';
  const restore = useEnv({
    DISCORD_APPLICATION_ID: applicationId,
    DISCORD_PUBLIC_KEY: publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex'),
    DISCORD_BOT_TOKEN: token,
    DISCORD_API_BASE: stand.apiBase,
  });
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const community = await createCommunity(ctx, 'discord');
  await send(ctx.baseUrl, discordInteraction(`/activate token:${community.token}`, pem, applicationId));
  await ctx.ports.queue.settled();
  return {
    platform: 'discord',
    path: 'AutoMod acts; POST /sync reads it back',
    async message(i) {
      const user = String(3000 + i);
      stand.addAuditEntry(SAMPLE_DISCORD.guildId, {
        id: nextSnowflake(),
        action_type: 143,
        user_id: user,
        target_id: user,
        options: {
          auto_moderation_rule_name: 'Outreach · Scam phrases',
          auto_moderation_rule_trigger_type: '1',
          channel_id: SAMPLE_DISCORD.channelId,
        },
      } as never);
      const synced = await ctx.call('POST', `${BASE}/sync`, { body: { community_id: community.id } });
      // The community's running count: each sync adds the one execution it read.
      if (synced.metrics?.messages_flagged !== i + 1)
        throw new Error(
          `Discord sync: ${synced.metrics?.messages_flagged} executions flagged in all, expected ${i + 1}`,
        );
    },
    close: async () => {
      restore();
      await stand.close();
    },
  };
}

async function reddit(ctx: BenchContext): Promise<PlatformMessage> {
  const reddit = await startBenchReddit('cost-reddit');
  const { stand } = reddit;
  const community = await createCommunity(ctx, 'reddit');
  const sub = 'cost_bench';
  await reddit.activate([{ sub, token: community.token }]);
  // The first minute reads the subreddit once without a cursor; the measured ones are the steady state.
  await runPollSchedule();
  await ctx.ports.queue.settled();
  return {
    platform: 'reddit',
    path: "the minute's poll (schedule, shard on the queue)",
    async message(i) {
      const item = stand.post(sub, `spammer_${i}`, SCAM);
      await runPollSchedule();
      await until(() => stand.calls.some((c) => c.path === '/api/remove' && c.form?.id === item), 'Reddit removal');
    },
    close: () => reddit.close(),
  };
}

async function x(ctx: BenchContext): Promise<PlatformMessage> {
  const client = { clientId: 'cost-x-client', clientSecret: 'cost-x-secret' };
  const stand = await startXStandIn(client);
  const restore = useEnv({
    X_CLIENT_ID: client.clientId,
    X_CLIENT_SECRET: client.clientSecret,
    X_API_BASE: stand.apiBase,
    X_AUTHORIZE_URL: stand.authorizeUrl,
  });
  const community = await createCommunity(ctx, 'x');
  const account = stand.addAccount({ id: '7100001', username: 'cost_bench' });
  // The customer opens authorize_url and approves on X; X sends the browser back to our callback.
  const record = await ctx.call('GET', `${BASE}/communities/${community.id}`);
  const callback = await fetch(stand.authorize(record.authorize_url, account.id));
  if (!callback.ok) throw new Error(`X callback answered ${callback.status}`);
  // The first minute reads the account's replies without a cursor; the measured ones are the steady state.
  await runPollSchedule();
  await ctx.ports.queue.settled();
  return {
    platform: 'x',
    path: "the minute's poll (schedule, shard on the queue)",
    async message(i) {
      const reply = stand.reply(account.username, { id: String(9_200_000 + i), username: `scammer${i}` }, SCAM);
      await runPollSchedule();
      await until(() => stand.isHidden(reply), 'X hiding the reply');
    },
    close: async () => {
      restore();
      await stand.close();
    },
  };
}

export const PLATFORM_MESSAGES: ((ctx: BenchContext) => Promise<PlatformMessage>)[] = [
  telegram,
  discord,
  reddit,
  x,
  crisp,
];
