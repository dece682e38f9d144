import { paymentsPort } from '#shared/adapters/payments';
import { awsSecrets, withPorts } from '#shared/adapters/aws';
import { createApiHandler } from '#shared/http/api';
import { accountEndpoints as E } from '#shared/schemas/account';
import { rotateApiKey, updateProfile } from '#shared/domain/accounts/accounts';
import { profileView, subscriptionView } from '#shared/domain/accounts/views';
import { getBalance } from '#shared/domain/credits/credits';
import { startCheckout } from '#shared/domain/billing/checkout';
import { creditUsage } from '#shared/domain/usage/creditUsage';
import type { AddOnType } from '#shared/domain/billing/plans';

export const handler = withPorts(
  'account',
  { payments: paymentsPort, secrets: awsSecrets },
  createApiHandler(E, {
    getMe: async ({ user }) => profileView(user, await getBalance(user.id)),
    updateMe: async ({ user, body }) => profileView(await updateProfile(user, body), await getBalance(user.id)),
    rotateApiKey: async ({ user }) => {
      const key = await rotateApiKey(user);
      return { api_key: key.apiKey, api_key_last_four: key.lastFour };
    },
    subscriptionStatus: async ({ user }) => subscriptionView(user, await getBalance(user.id)),
    checkoutSession: async ({ user, body, baseUrl }) =>
      startCheckout(user, (body.add_ons ?? []) as AddOnType[], baseUrl),
    creditUsage: async ({ user, query }) => creditUsage(user, query.start_date, query.end_date),
  }),
);
