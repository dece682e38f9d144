import { uuidv7 } from '#shared/ids';
import { logger } from '#shared/observability/logger';
import {
  errorProxyResult,
  jsonRpcErrorResult,
  logServerError,
  toErrorResponse,
  ValidationError,
} from '#shared/http/errors';
import { finishIdempotentRequest } from '#shared/http/idempotency';
import { routeName, type ApiMiddleware } from './state';

/**
 * Registered before the request's own middlewares so that its onError runs after theirs: every
 * error becomes the contract's body (a JSON-RPC operation's refused body, the protocol's error), a 5xx without internals (the log line keeps them). The
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
    // A JSON-RPC operation's body refused (the only input such an operation has) is answered in its protocol.
    request.response =
      request.internal.route?.spec.jsonRpcErrors && request.error instanceof ValidationError
        ? jsonRpcErrorResult(request.error, requestId)
        : errorProxyResult(mapped, requestId);
    const claim = request.internal.idempotency;
    if (claim) await finishIdempotentRequest(claim, request.response).catch(() => undefined);
  },
});
