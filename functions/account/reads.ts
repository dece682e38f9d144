/**
 * The account routes that only read. The account function serves them with the rest; the MCP function
 * runs them for its tools through this handler alone, so its bundle carries neither the payments port
 * nor Stripe's library, which only the account function's checkout reaches.
 */
import { createApiHandler, type Implementations } from '#shared/http/api';
import { accountEndpoints } from '#shared/schemas/account';
import { profileView, subscriptionView } from '#shared/domain/accounts/views';
import { getBalance } from '#shared/domain/credits/credits';
import { creditUsage } from '#shared/domain/usage/creditUsage';

export const accountReadEndpoints = {
  getMe: accountEndpoints.getMe,
  subscriptionStatus: accountEndpoints.subscriptionStatus,
  creditUsage: accountEndpoints.creditUsage,
};

export const accountReads: Implementations<typeof accountReadEndpoints> = {
  getMe: async ({ user }) => profileView(user, await getBalance(user.id)),
  subscriptionStatus: async ({ user }) => subscriptionView(user, await getBalance(user.id)),
  creditUsage: async ({ user, query }) => creditUsage(user, query.start_date, query.end_date),
};

/** The read routes' own chain, without the account function's ports: for a function that runs them in process. */
export const handler = createApiHandler(accountReadEndpoints, accountReads);
