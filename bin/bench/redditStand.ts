/**
 * The Reddit the moderation benches run against: the recording stand-in (bin/standIns/redditStandIn.ts),
 * the operator's credentials pointing the real adapter at it, and subreddits bound as a customer binds
 * one (a moderator invites the bot and sends it `/activate`, read from the bot's inbox).
 */
import { randomUUID } from 'node:crypto';
import { reloadConfig } from '#shared/config/config';
import { runPoll } from '#shared/domain/moderation/polling';
import { type RedditStandIn, startRedditStandIn } from '#bin/standIns/redditStandIn';

export interface BenchReddit {
  stand: RedditStandIn;
  /** The app's client id: unique to this run, so its request budget starts empty. */
  clientId: string;
  /** Binds each subreddit to its community by the community's activation token. */
  activate(places: { sub: string; token: string }[]): Promise<void>;
  /** Puts the earlier credentials back and stops the stand-in. */
  close(): Promise<void>;
}

export async function startBenchReddit(name: string): Promise<BenchReddit> {
  const clientId = `${name}-${randomUUID().slice(0, 8)}`;
  const secrets = { clientSecret: `${name}-secret`, refreshToken: `${name}-refresh`, botUsername: 'BenchModBot' };
  const stand = await startRedditStandIn({ clientId, ...secrets });
  // The stand-in's window is wide: the benches measure what the service asks for, not Reddit's limit.
  stand.setRate(1_000_000, 600);
  const env = {
    REDDIT_CLIENT_ID: clientId,
    REDDIT_CLIENT_SECRET: secrets.clientSecret,
    REDDIT_REFRESH_TOKEN: secrets.refreshToken,
    REDDIT_USERNAME: secrets.botUsername,
    REDDIT_API_BASE: stand.apiBase,
    REDDIT_AUTH_BASE: stand.authBase,
  };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  reloadConfig();
  return {
    stand,
    clientId,
    async activate(places) {
      for (const { sub, token } of places) {
        stand.addSubreddit(sub, ['owner']);
        stand.privateMessage('owner', `/activate ${token} r/${sub}`);
      }
      while (stand.unreadCount() > 0)
        await runPoll({ kind: 'moderation.poll', platform: 'reddit', communities: [], operator: true });
    },
    async close() {
      for (const [k, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[k];
        else process.env[k] = value;
      }
      reloadConfig();
      await stand.close();
    },
  };
}
