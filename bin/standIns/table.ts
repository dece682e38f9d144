/**
 * The platforms a person can try on this machine (`npm start -- --stand-ins`): one row per platform,
 * saying how its recording stand-in starts (the same one the tests use), which
 * variables point the server at it with local test credentials, and how `npm run stand-in --
 * <platform> '<text>'` sends a sample: to the local API as the platform would push it, or, for a
 * platform the service polls, into the stand-in itself (polled.ts). A platform is added with one row here
 * (keyed by its community type, so it does not compile without one).
 */
import { generateKeyPairSync } from 'node:crypto';
import type { CommunityType } from '#shared/platforms/names';
import { startDiscordStandIn } from '#bin/standIns/discordStandIn';
import { startTelegramStandIn } from '#bin/standIns/telegramStandIn';
import { startCrispStandIn } from '#bin/standIns/crispStandIn';
import { startRedditStandIn } from '#bin/standIns/redditStandIn';
import { startXStandIn } from '#bin/standIns/xStandIn';
import { SAMPLE_HUNTER_COMPANIES, startHunterStandIn } from '#bin/standIns/hunterStandIn';
import { crispHook, discordInteraction, telegramUpdate, SAMPLE_TELEGRAM, type SampleRequest } from './samples';
import { controlSample, SAMPLE_REDDIT, SAMPLE_X, startControlRoute, writeRedditSample, writeXSample } from './polled';

/** What a running stand-in hands back: the variables for the server, what `send` needs later, its recorded calls. */
export interface RunningStandIn {
  env: Record<string, string>;
  /** Kept in the session file (mode 600) for the `stand-in` command; local test values only. */
  sampleConfig: Record<string, string>;
  /** The calls the stand-in has recorded so far, oldest first (printed as they arrive). */
  calls: () => readonly { method: string; path?: string; body: unknown }[];
  close(): Promise<void>;
}

export interface StandInRow {
  /** The platform or data provider it stands in for. */
  platform: string;
  /** The variables `start` sets (listed for the README and the start-up banner). */
  variables: readonly string[];
  start(): Promise<RunningStandIn>;
  /**
   * The request for a sample `text` (a slash command or a message), from the kept `sampleConfig`;
   * null for a data provider, which a job calls (`usage` says how to start one).
   */
  sample: ((text: string, sampleConfig: Record<string, string>) => SampleRequest) | null;
  usage?: string;
}

/** A row without its name: the tables below are keyed by it. */
type StandInSpec = Omit<StandInRow, 'platform'>;

/**
 * One stand-in per chat platform, keyed by the closed list of community types: a new platform does
 * not compile without its row here.
 */
const PLATFORM_STAND_INS: { readonly [K in CommunityType]: StandInSpec } = {
  telegram: {
    variables: ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET', 'TELEGRAM_API_BASE'],
    async start() {
      const token = '7000000000:local-stand-in-bot-token';
      const stand = await startTelegramStandIn(token);
      // The sample group's administrator may /activate; everyone else is a plain member.
      stand.setMemberStatus(SAMPLE_TELEGRAM.chat.id, SAMPLE_TELEGRAM.admin.id, 'administrator');
      const secret = 'local-stand-in-webhook-secret';
      return {
        env: { TELEGRAM_BOT_TOKEN: token, TELEGRAM_WEBHOOK_SECRET: secret, TELEGRAM_API_BASE: stand.apiBase },
        sampleConfig: { secret },
        calls: () => stand.calls,
        close: stand.close,
      };
    },
    sample: (text, config) => telegramUpdate(text, config.secret),
  },
  discord: {
    variables: ['DISCORD_APPLICATION_ID', 'DISCORD_PUBLIC_KEY', 'DISCORD_BOT_TOKEN', 'DISCORD_API_BASE'],
    async start() {
      const token = 'local-stand-in-bot-token';
      const stand = await startDiscordStandIn(token);
      // A key pair made here: the server checks interactions against its public half, `stand-in` signs with the private one.
      const { publicKey, privateKey } = generateKeyPairSync('ed25519');
      const applicationId = '100000000000000001';
      return {
        env: {
          DISCORD_APPLICATION_ID: applicationId,
          DISCORD_PUBLIC_KEY: publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex'),
          DISCORD_BOT_TOKEN: token,
          DISCORD_API_BASE: stand.apiBase,
        },
        sampleConfig: { privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), applicationId },
        calls: () => stand.calls,
        close: stand.close,
      };
    },
    sample: (text, config) => discordInteraction(text, config.privateKey, config.applicationId),
  },
  crisp: {
    variables: ['CRISP_PLUGIN_ID', 'CRISP_TOKEN_IDENTIFIER', 'CRISP_TOKEN_KEY', 'CRISP_HOOK_SECRET', 'CRISP_API_BASE'],
    async start() {
      const [identifier, key, hookSecret] = [
        'local-stand-in-identifier',
        'local-stand-in-key',
        'local-stand-in-hook-secret',
      ];
      const stand = await startCrispStandIn(identifier, key);
      return {
        env: {
          CRISP_PLUGIN_ID: 'local-stand-in-plugin',
          CRISP_TOKEN_IDENTIFIER: identifier,
          CRISP_TOKEN_KEY: key,
          CRISP_HOOK_SECRET: hookSecret,
          CRISP_API_BASE: stand.apiBase,
        },
        sampleConfig: { hookSecret },
        calls: () => stand.calls,
        close: stand.close,
      };
    },
    sample: (text, config) => crispHook(text, config.hookSecret),
  },
  reddit: {
    variables: [
      'REDDIT_CLIENT_ID',
      'REDDIT_CLIENT_SECRET',
      'REDDIT_REFRESH_TOKEN',
      'REDDIT_USERNAME',
      'REDDIT_USER_AGENT',
      'REDDIT_API_BASE',
      'REDDIT_AUTH_BASE',
    ],
    async start() {
      const credentials = {
        clientId: 'local-stand-in-client',
        clientSecret: 'local-stand-in-secret',
        refreshToken: 'local-stand-in-refresh-token',
      };
      const stand = await startRedditStandIn({ ...credentials, botUsername: SAMPLE_REDDIT.bot });
      // The sample subreddit's moderator has already invited the bot: the invitation `/activate` accepts.
      stand.addSubreddit(SAMPLE_REDDIT.subreddit, [SAMPLE_REDDIT.moderator]);
      const control = await startControlRoute((text) => writeRedditSample(stand, text));
      return {
        env: {
          REDDIT_CLIENT_ID: credentials.clientId,
          REDDIT_CLIENT_SECRET: credentials.clientSecret,
          REDDIT_REFRESH_TOKEN: credentials.refreshToken,
          REDDIT_USERNAME: SAMPLE_REDDIT.bot,
          REDDIT_USER_AGENT: `local:outreach-stand-in:1.0 (by /u/${SAMPLE_REDDIT.bot})`,
          REDDIT_API_BASE: stand.apiBase,
          REDDIT_AUTH_BASE: stand.authBase,
        },
        sampleConfig: { control: control.url },
        // Reads are printed with their query, writes with their form.
        calls: () =>
          stand.calls.map((c) => ({ method: c.method, path: c.path, body: c.method === 'GET' ? c.query : c.form })),
        close: async () => {
          await control.close();
          await stand.close();
        },
      };
    },
    sample: (text) => controlSample(text),
  },
  x: {
    variables: ['X_CLIENT_ID', 'X_CLIENT_SECRET', 'X_API_BASE', 'X_AUTHORIZE_URL'],
    async start() {
      const client = { clientId: 'local-stand-in-client', clientSecret: 'local-stand-in-secret' };
      const stand = await startXStandIn(client);
      // The sample account is signed in to the stand-in's X: opening an authorize link approves the app as it.
      stand.addAccount(SAMPLE_X.account);
      stand.signIn(SAMPLE_X.account.id);
      const control = await startControlRoute((text) => writeXSample(stand, text));
      return {
        env: {
          X_CLIENT_ID: client.clientId,
          X_CLIENT_SECRET: client.clientSecret,
          X_API_BASE: stand.apiBase,
          X_AUTHORIZE_URL: stand.authorizeUrl,
        },
        sampleConfig: { control: control.url },
        calls: () =>
          stand.calls.map((c) => ({ method: c.method, path: c.path, body: c.method === 'GET' ? c.query : c.body })),
        close: async () => {
          await control.close();
          await stand.close();
        },
      };
    },
    sample: (text) => controlSample(text),
  },
};

/** Data providers with a stand-in (`sample: null`: a job calls them). */
const PROVIDER_STAND_INS: Readonly<Record<string, StandInSpec>> = {
  // Enrichment jobs call it for companies outside the curated data.
  hunter: {
    variables: ['HUNTER_API_KEY', 'HUNTER_API_BASE', 'ENRICHMENT_PROVIDERS'],
    async start() {
      const key = 'local-stand-in-hunter-key';
      const stand = await startHunterStandIn(key);
      return {
        env: { HUNTER_API_KEY: key, HUNTER_API_BASE: stand.apiBase, ENRICHMENT_PROVIDERS: 'hunter' },
        sampleConfig: {},
        // Printed without the key.
        calls: () =>
          stand.calls.map((c) => {
            const { api_key: _key, ...query } = c.query;
            return { method: 'GET', path: c.path, body: query };
          }),
        close: stand.close,
      };
    },
    sample: null,
    usage: `start an enrichment job on one of its sample companies (${SAMPLE_HUNTER_COMPANIES.map((c) => c.domain).join(', ')})`,
  },
};

export const STAND_INS: readonly StandInRow[] = Object.entries({ ...PLATFORM_STAND_INS, ...PROVIDER_STAND_INS }).map(
  ([platform, row]) => ({ platform, ...row }),
);

export const standInFor = (platform: string): StandInRow | undefined =>
  STAND_INS.find((row) => row.platform === platform);
