import { loadCaller } from '#shared/domain/accounts/accounts';
import { routeOf, type ApiMiddleware } from './state';

/** The caller the authorizer vouched for (by user id and key hash), loaded fresh, on api_key routes. */
export const authentication = (): ApiMiddleware => ({
  before: async (request) => {
    if (routeOf(request).spec.auth !== 'api_key') return;
    const authorizer = (request.event.requestContext?.authorizer ?? {}) as Record<string, string | undefined>;
    request.internal.user = await loadCaller(authorizer.userId, authorizer.keyHash);
  },
});
