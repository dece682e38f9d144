/**
 * The first start's dataset gate for the routes the MCP tools run: a tool calls its route's handler
 * in process, never through this server's own router, so the router's answer (503 dataset_loading
 * with Retry-After and progress) is given again here, around each route the tool would reach.
 */
import type { EndpointSpec } from '#shared/schemas/endpoint';
import { errorProxyResult, toErrorResponse } from '#shared/http/errors';
import type { ApiHandler, RouteHandlers } from '#shared/mcp/routeCall';
import { API_GROUPS, type ApiGroup } from '#shared/schemas/groups';

/** The routes of each group that read the curated dataset, by method and path template. */
const curatedRoutes = (group: ApiGroup): Set<string> =>
  new Set(
    (API_GROUPS[group] as readonly EndpointSpec[])
      .filter((spec) => spec.readsCuratedData)
      .map((spec) => `${spec.method} ${spec.path}`),
  );

/** `routes`, each answering as the server's router does while `unavailable` returns an error. */
export function gateCuratedRoutes(routes: RouteHandlers, unavailable: () => Error | undefined): RouteHandlers {
  const gated: RouteHandlers = {};
  for (const [group, load] of Object.entries(routes) as [ApiGroup, () => Promise<ApiHandler>][]) {
    const curated = curatedRoutes(group);
    gated[group] = async () => {
      const handler = await load();
      return async (event, context) => {
        const err = curated.has(`${event.httpMethod} ${event.resource}`) ? unavailable() : undefined;
        if (!err) return handler(event, context);
        const { requestId } = event.requestContext;
        return errorProxyResult(toErrorResponse(err, requestId), requestId);
      };
    };
  }
  return gated;
}
