import { SubscriptionRequiredError } from '#shared/http/errors';
import { routeOf, type ApiMiddleware } from './state';

/** Paid routes serve only an active pro subscription (403 subscription_required). */
export const subscriptionCheck = (): ApiMiddleware => ({
  before: (request) => {
    if (!routeOf(request).spec.paid) return;
    const user = request.internal.user;
    if (!(user?.tier === 'pro' && user.subscriptionStatus === 'active')) throw new SubscriptionRequiredError();
  },
});
