import { uuidv7 } from '#shared/ids';
import { logger } from '#shared/observability/logger';
import { errorProxyResult, logServerError, toErrorResponse } from '#shared/http/errors';
import { finishIdempotentRequest } from '#shared/http/idempotency';
import { routeName, type ApiMiddleware } from './state';

/**
 * Registered before the request's own middlewares so that its onError runs after theirs: every
 * error becomes the contract's body, a 5xx without internals (the log line keeps them). The
 * idempotency claim is finished with the mapped answer, so a retry replays it.
 */
export const errorResponder = (): ApiMiddleware => ({
  onError: async (request) => {
    const requestId = request.internal.requestId ?? uuidv7();
    const mapped = toErrorResponse(request.error, requestId);
    if (mapped.status >= 500) {
      logger.appendKeys({ requestId, route: routeName(request) });
      logServerError(requestId, request.error);
    }
    request.response = errorProxyResult(mapped, requestId);
    const claim = request.internal.idempotency;
    if (claim) await finishIdempotentRequest(claim, request.response).catch(() => undefined);
  },
});
