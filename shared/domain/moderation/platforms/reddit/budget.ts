/** The deployment's shared Reddit request budget (the table), as the adapter's port, on the service's clock. */
import { now } from '#shared/adapters/ports';
import type { RedditRateBudget } from '#shared/adapters/platforms/redditApi';
import { observeRedditRate, takeRedditRequest } from '#shared/store/redditBudgetRepo';

export const sharedRedditBudget = (clientId: string): RedditRateBudget => ({
  take: (reserve, share) => takeRedditRequest(clientId, now().getTime(), reserve, share),
  observe: (remaining, resetSeconds, used) =>
    observeRedditRate(clientId, now().getTime(), remaining, resetSeconds, used),
});
