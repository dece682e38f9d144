/** The deployment's shared Reddit request budget (the table), as the adapter's port, on the service's clock. */
import { now } from '#shared/adapters/ports';
import type { RedditRateBudget } from './api';
import { observeRedditRate, takeRedditRequest } from './budgetRepo';

/**
 * `consumer`: whose fair share of the window a call is taken from (a community's deliveries, the bot's
 * inbox; budgetRepo.ts fairShare); none for polls, which read for every community.
 */
export const sharedRedditBudget = (clientId: string, consumer?: string): RedditRateBudget => ({
  take: (reserve, share, fair = true) =>
    takeRedditRequest(clientId, now().getTime(), reserve, share, fair ? consumer : undefined),
  observe: (remaining, resetSeconds, used) =>
    observeRedditRate(clientId, now().getTime(), remaining, resetSeconds, used),
});
