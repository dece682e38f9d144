/**
 * The operator's Reddit credentials: a script app and its bot account (environment variables locally,
 * keys of the platform secret in AWS), with the API bases as configuration.
 */
import type { CredentialSpec, PlatformSettings } from '#shared/platforms/contract';

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

export const REDDIT_CREDENTIALS: CredentialSpec<RedditCredentials> = {
  names: REDDIT_CREDENTIAL_NAMES,
  apiBase: { env: 'REDDIT_API_BASE', default: REDDIT_DEFAULT_BASE },
  read: readRedditCredentials,
  configured: redditConfigured,
};
