import { findUserIdByEmail, getUser, rotateApiKeyItems, updateUserFields } from '#shared/store/usersRepo';
import { writeTogether } from '#shared/store/transactions';
import { now } from '#shared/adapters/ports';
import { addOneMonth } from '#shared/domain/billing/plans';
import { grantCredits } from '#shared/domain/credits/credits';
import { hashApiKey, issueApiKey } from './apiKeys';
import { createAccount } from './accounts';

export interface DemoAccount {
  email: string;
  tier: 'developer' | 'pro';
  credits: number;
  /** A key to set (DEMO_*_API_KEY): the account's key becomes this one. */
  apiKey?: string;
  /**
   * An existing account keeps the key it has, whoever set it (a rotation over the API included):
   * `lastKey`, the key last shown for it, is returned if it is still that key; otherwise nothing is
   * returned, since only the key's hash is stored. Without this a new key is issued.
   */
  keep?: { lastKey?: string };
}

/**
 * Makes sure a demo account exists, with its subscription current and its initial credits granted,
 * and returns its key when it is known (see `keep`).
 */
export async function ensureDemoAccount(demo: DemoAccount & { keep?: undefined }): Promise<string>;
export async function ensureDemoAccount(demo: DemoAccount): Promise<string | undefined>;
export async function ensureDemoAccount(demo: DemoAccount): Promise<string | undefined> {
  const existingId = await findUserIdByEmail(demo.email);
  if (!existingId) {
    const { apiKey } = await createAccount({
      email: demo.email,
      tier: demo.tier,
      credits: demo.credits,
      fullName: `Demo ${demo.tier}`,
    });
    if (!demo.apiKey) return apiKey;
    const userId = await findUserIdByEmail(demo.email);
    const user = userId && (await getUser(userId));
    if (!user) throw new Error(`The demo account ${demo.email} was not created`);
    const key = issueApiKey(demo.apiKey);
    await writeTogether(rotateApiKeyItems(user, key.hash, key.lastFour, now().toISOString()));
    return key.apiKey;
  }
  const user = await getUser(existingId);
  if (!user) throw new Error(`The demo account ${demo.email} went away while it was read`);
  let shown: string | undefined;
  if (demo.keep && !demo.apiKey) {
    const last = demo.keep.lastKey;
    shown = last !== undefined && hashApiKey(last) === user.apiKeyHash ? last : undefined;
  } else {
    const key = issueApiKey(demo.apiKey);
    if (user.apiKeyHash !== key.hash)
      await writeTogether(rotateApiKeyItems(user, key.hash, key.lastFour, now().toISOString()));
    shown = key.apiKey;
  }
  if (
    demo.tier === 'pro' &&
    (user.subscriptionStatus !== 'active' ||
      !user.currentPeriodEnd ||
      Date.parse(user.currentPeriodEnd) < now().getTime())
  ) {
    // Keep the demo subscription current across restarts.
    await updateUserFields(
      user.id,
      {
        tier: 'pro',
        subscriptionStatus: 'active',
        currentPeriodStart: now().toISOString(),
        currentPeriodEnd: addOneMonth(now()).toISOString(),
        downgradeAt: null,
      },
      now().toISOString(),
    );
  }
  await grantCredits({ userId: user.id, grantId: `initial-${user.id}`, amount: demo.credits, source: 'operator' });
  return shown;
}
