import { findUserIdByEmail, getUser, rotateApiKeyItems, updateUserFields } from '#shared/store/usersRepo';
import { writeTogether } from '#shared/store/transactions';
import { now } from '#shared/adapters/ports';
import { addOneMonth } from '#shared/domain/billing/plans';
import { grantCredits } from '#shared/domain/credits/credits';
import { issueApiKey } from './apiKeys';
import { createAccount } from './accounts';

export interface DemoAccount {
  email: string;
  tier: 'developer' | 'pro';
  credits: number;
  /** A fixed key (DEMO_*_API_KEY, or the one the local runtime kept); otherwise a fresh key is issued. */
  apiKey?: string;
}

/**
 * Makes sure a demo account exists and returns a working key for it. Only key hashes are stored, so
 * on a restart without a fixed key the account gets a new key (the old one stops working).
 */
export async function ensureDemoAccount(demo: DemoAccount): Promise<string> {
  const existingId = await findUserIdByEmail(demo.email);
  if (!existingId) {
    const { apiKey } = await createAccount({ email: demo.email, tier: demo.tier, credits: demo.credits, fullName: `Demo ${demo.tier}` });
    if (!demo.apiKey) return apiKey;
    const user = (await getUser((await findUserIdByEmail(demo.email))!))!;
    const key = issueApiKey(demo.apiKey);
    await writeTogether(rotateApiKeyItems(user, key.hash, key.lastFour, now().toISOString()));
    return key.apiKey;
  }
  const user = (await getUser(existingId))!;
  const key = issueApiKey(demo.apiKey);
  if (user.apiKeyHash !== key.hash) await writeTogether(rotateApiKeyItems(user, key.hash, key.lastFour, now().toISOString()));
  if (demo.tier === 'pro' && (user.subscriptionStatus !== 'active' || !user.currentPeriodEnd || Date.parse(user.currentPeriodEnd) < now().getTime())) {
    // Keep the demo subscription current across restarts.
    await updateUserFields(user.id, { tier: 'pro', subscriptionStatus: 'active', currentPeriodStart: now().toISOString(), currentPeriodEnd: addOneMonth(now()).toISOString(), downgradeAt: null }, now().toISOString());
  }
  await grantCredits({ userId: user.id, grantId: `initial-${user.id}`, amount: demo.credits, source: 'operator' });
  return key.apiKey;
}
