import { ConflictError } from '#shared/domain/errors';
import { now, ports } from '#shared/adapters/ports';
import { putCheckout } from '#shared/store/checkoutRepo';
import type { UserRecord } from '#shared/store/usersRepo';
import { type AddOnType, checkoutLines } from './plans';

const SESSION_TTL_SECONDS = 24 * 60 * 60;

export async function startCheckout(user: UserRecord, addOns: AddOnType[], baseUrl: string) {
  // A second paid checkout would start a second subscription billing every month beside the first.
  if (user.tier === 'pro' && user.subscriptionStatus === 'active' && user.stripeSubscriptionId) {
    throw new ConflictError('subscription_active', 'This account already has an active pro subscription.');
  }
  const payments = ports().payments;
  const session = await payments.createCheckoutSession({
    userId: user.id,
    email: user.email,
    addOns,
    lines: checkoutLines(addOns),
    baseUrl,
  });
  const at = now();
  await putCheckout(
    {
      sessionId: session.id,
      userId: user.id,
      addOns,
      status: 'open',
      provider: payments.kind,
      createdAt: at.toISOString(),
    },
    Math.floor(at.getTime() / 1000) + SESSION_TTL_SECONDS,
  );
  return { checkout_url: session.url, checkout_session_id: session.id };
}
