import { config } from '#shared/config/config';
import { logger } from '#shared/observability/logger';
import { routeName, type ApiMiddleware } from './state';

/**
 * One access line per request (route, status, duration), whatever the outcome, at INFO (deployed) or
 * at the configured ACCESS_LOG_LEVEL (the local server: debug). Registered before the error responder
 * so that, on an error, it runs after the response was mapped.
 */
export const accessLog = (): ApiMiddleware => {
  const write: NonNullable<ApiMiddleware['after']> = (request) => {
    const since = request.internal.startedAt;
    logger.appendKeys({ requestId: request.internal.requestId, route: routeName(request) });
    logger[config().accessLogLevel]('request', {
      status: request.response?.statusCode,
      durationMs: since === undefined ? undefined : Date.now() - since,
    });
  };
  return {
    before: (request) => {
      request.internal.startedAt = Date.now();
    },
    after: write,
    onError: write,
  };
};

/** Once the caller is known: route and user id on every later log line. */
export const callerTelemetry = (): ApiMiddleware => ({
  before: (request) => {
    const route = routeName(request);
    const userId = request.internal.user?.id;
    logger.appendKeys({ requestId: request.internal.requestId, route, userId });
  },
});
