import { uuidv7 } from '#shared/ids';
import { lowerCaseHeaders } from '#shared/http/headers';
import type { ApiMiddleware } from './state';

/** The request id (API Gateway's, else a new one) and the lower-cased headers, first of all. */
export const requestScope = (): ApiMiddleware => ({
  before: (request) => {
    request.internal.requestId = request.event.requestContext?.requestId ?? uuidv7();
    request.internal.headers = lowerCaseHeaders(request.event.headers);
    // The handler sees only the event and context: the context carries the state to the route.
    request.context.apiRequest = request.internal;
  },
});
