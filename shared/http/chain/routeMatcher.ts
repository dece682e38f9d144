import { NotFoundError } from '#shared/http/errors';
import type { ApiMiddleware, Route } from './state';

/** The group's route for the method and resource API Gateway matched; 404 when the group has none. */
export const routeMatcher = (routes: Route[]): ApiMiddleware => {
  const table = new Map(routes.map((r) => [`${r.spec.method} ${r.spec.path}`, r]));
  return {
    before: (request) => {
      const route = table.get(`${request.event.httpMethod} ${request.event.resource}`);
      if (!route) throw new NotFoundError('Endpoint');
      request.internal.route = route;
    },
  };
};
