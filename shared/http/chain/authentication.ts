import { loadCaller } from '#shared/domain/accounts/accounts';
import { verifyTelegramWebhookSecret } from '#shared/platforms/telegram/webhookSecret';
import { verifyCrispHookRequest } from '#shared/platforms/crisp/hookAuth';
import type { EndpointSpec } from '#shared/schemas/endpoint';
import { requestBodyText } from './bodyParser';
import { routeOf, type ApiMiddleware } from './state';

/**
 * How each kind of shared-secret caller (EndpointSpec.callerSecret, named by the spec, never by the
 * request) is checked; a signature reads the body text. A kind without a check does not compile.
 */
const CALLER_SECRET_CHECKS: Record<
  NonNullable<EndpointSpec['callerSecret']>,
  (headers: Record<string, string | undefined>, body: () => string) => Promise<void>
> = {
  telegram_webhook_secret: verifyTelegramWebhookSecret,
  crisp_hook_signature: verifyCrispHookRequest,
};

/**
 * Who is calling, before any input is read: on api_key routes the caller the authorizer vouched for
 * (by user id and key hash), loaded fresh (once per invocation: a route run in process by another keeps the
 * caller that route's chain loaded); on a platform's webhook its shared secret (401 otherwise).
 */
export const authentication = (): ApiMiddleware => ({
  before: async (request) => {
    const { spec } = routeOf(request);
    if (spec.callerSecret)
      await CALLER_SECRET_CHECKS[spec.callerSecret](request.internal.headers, () => requestBodyText(request.event));
    if (spec.auth !== 'api_key') return;
    const authorizer = (request.event.requestContext?.authorizer ?? {}) as Record<string, string | undefined>;
    const vouched = request.context.vouchedCaller;
    request.internal.user =
      vouched && vouched.id === authorizer.userId && vouched.apiKeyHash === authorizer.keyHash
        ? vouched
        : await loadCaller(authorizer.userId, authorizer.keyHash);
  },
});
