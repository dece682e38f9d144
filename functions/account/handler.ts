import { paymentsPort } from '#shared/adapters/payments';
import { withPorts } from '#shared/adapters/aws';
import { awsSecrets } from '#shared/adapters/secrets';
import { createApiHandler } from '#shared/http/api';
import { accountEndpoints as E } from '#shared/schemas/account';
import { rotateApiKey, updateProfile } from '#shared/domain/accounts/accounts';
import { profileView } from '#shared/domain/accounts/views';
import { getBalance } from '#shared/domain/credits/credits';
import { startCheckout } from '#shared/domain/billing/checkout';
import type { AddOnType } from '#shared/domain/billing/plans';
import { accountReads } from './reads';

export const handler = withPorts(
  'account',
  { payments: paymentsPort, secrets: awsSecrets },
  createApiHandler(E, {
    ...accountReads,
    updateMe: async ({ user, body }) => profileView(await updateProfile(user, body), await getBalance(user.id)),
    rotateApiKey: async ({ user }) => {
      const key = await rotateApiKey(user);
      return { api_key: key.apiKey, api_key_last_four: key.lastFour };
    },
    checkoutSession: async ({ user, body, baseUrl }) =>
      startCheckout(user, (body.add_ons ?? []) as AddOnType[], baseUrl),
  }),
);
