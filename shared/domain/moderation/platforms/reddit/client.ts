/** The operator's Reddit bot as a client, from the credentials the Reddit module reads. */
import { platformCredentials } from '#shared/adapters/platformCredentials';
import type { PlatformSettings } from '../platform';
import { RedditApi } from '#shared/adapters/platforms/redditApi';
import { sharedRedditBudget } from './budget';

export interface RedditCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** The operator's bot account: a permanent refresh token and the account's name. */
  refreshToken: string | undefined;
  username: string | undefined;
  userAgent: string;
  apiBase: string;
  authBase: string;
}

export const REDDIT_DEFAULT_BASE = 'https://oauth.reddit.com';
export const REDDIT_DEFAULT_AUTH_BASE = 'https://www.reddit.com';
export const REDDIT_CREDENTIAL_NAMES = [
  'REDDIT_CLIENT_ID',
  'REDDIT_CLIENT_SECRET',
  'REDDIT_REFRESH_TOKEN',
  'REDDIT_USERNAME',
  'REDDIT_USER_AGENT',
] as const;

/** Reddit asks for `<platform>:<app id>:<version> (by /u/<username>)` and throttles generic agents. */
const defaultUserAgent = (username: string | undefined) =>
  `server:outreach-moderation:1.0 (by /u/${username ?? 'unknown'})`;

export function readRedditCredentials(
  values: Readonly<Record<string, string | undefined>>,
  apiBase: string,
  settings: PlatformSettings,
): RedditCredentials {
  return {
    clientId: values.REDDIT_CLIENT_ID,
    clientSecret: values.REDDIT_CLIENT_SECRET,
    refreshToken: values.REDDIT_REFRESH_TOKEN,
    username: values.REDDIT_USERNAME,
    userAgent: values.REDDIT_USER_AGENT ?? defaultUserAgent(values.REDDIT_USERNAME),
    apiBase,
    // Configuration like the API base (tests point both at a stand-in), not a secret.
    authBase: settings.REDDIT_AUTH_BASE ?? REDDIT_DEFAULT_AUTH_BASE,
  };
}

export const redditConfigured = (c: RedditCredentials): boolean =>
  Boolean(c.clientId && c.clientSecret && c.refreshToken && c.username);

export interface RedditBot {
  api: RedditApi;
  username: string;
}

/**
 * The operator's bot; undefined when a credential it needs is not set. `consumer`: whose fair share of
 * the deployment's request budget its calls take (budget.ts); none for polls.
 */
export function redditBotFrom(c: RedditCredentials, consumer?: string): RedditBot | undefined {
  const { clientId, clientSecret, refreshToken, username } = c;
  if (!clientId || !clientSecret || !refreshToken || !username) return undefined;
  const config = {
    clientId,
    clientSecret,
    refreshToken,
    userAgent: c.userAgent,
    apiBase: c.apiBase,
    authBase: c.authBase,
  };
  return { api: new RedditApi(config, sharedRedditBudget(clientId, consumer)), username };
}

/** Undefined when the operator's credentials are not all set: nothing is read or sent. */
export async function redditBot(consumer?: string): Promise<RedditBot | undefined> {
  const credentials = (await platformCredentials()).reddit;
  return redditConfigured(credentials) ? redditBotFrom(credentials, consumer) : undefined;
}
