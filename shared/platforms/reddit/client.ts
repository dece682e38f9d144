/** The operator's Reddit bot as a client, from the credentials the Reddit module reads. */
import { readOwnCredentials } from '#shared/platforms/ownCredentials';
import { RedditApi } from './api';
import { sharedRedditBudget } from './budget';
import { REDDIT_CREDENTIALS, redditConfigured, type RedditCredentials } from './credentials';

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
  const credentials = await readOwnCredentials(REDDIT_CREDENTIALS);
  return redditConfigured(credentials) ? redditBotFrom(credentials, consumer) : undefined;
}
