/** The operator's Reddit bot as a client: undefined when its credentials are not all set (not_configured). */
import { ports } from '#shared/adapters/ports';
import { RedditApi } from '#shared/adapters/platforms/redditApi';
import { sharedRedditBudget } from './budget';

export interface RedditBot {
  api: RedditApi;
  username: string;
}

export async function redditBot(): Promise<RedditBot | undefined> {
  const c = (await ports().secrets.platformCredentials()).reddit;
  if (!c.clientId || !c.clientSecret || !c.refreshToken || !c.username) return undefined;
  const config = { clientId: c.clientId, clientSecret: c.clientSecret, refreshToken: c.refreshToken, userAgent: c.userAgent, apiBase: c.apiBase, authBase: c.authBase };
  return { api: new RedditApi(config, sharedRedditBudget(c.clientId)), username: c.username };
}
