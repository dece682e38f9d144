/**
 * A tool call runs its route through the route's own Lambda handler, in process: the same chain
 * (caller, subscription, validation, Idempotency-Key, credit meter, error mapping) as over HTTP, on
 * the event API Gateway would send for that request, with the caller the authorizer vouched for and the
 * MCP request's chain already loaded (read once per tool call, not once per chain).
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { EndpointSpec } from '#shared/schemas/endpoint';
import type { ApiLambdaContext } from '#shared/http/chain/state';
import type { UserRecord } from '#shared/store/usersRepo';
import type { FieldIssue } from '#shared/domain/errors';
import { dictionary } from '#shared/dictionary';
import { API_GROUPS, type ApiGroup } from '#shared/schemas/groups';
import { shapeKeys } from './toolSchemas';

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
/** The Lambda handlers of the groups whose routes the tools run, each loaded on first use. */
export type RouteHandlers = Partial<Record<ApiGroup, () => Promise<ApiHandler>>>;

export interface Operation {
  group: ApiGroup;
  spec: EndpointSpec;
}

/** Every operation by its operationId, with the group whose function serves it. */
export const OPERATIONS: ReadonlyMap<string, Operation> = new Map(
  (Object.entries(API_GROUPS) as [ApiGroup, EndpointSpec[]][]).flatMap(([group, specs]) =>
    specs.map((spec) => [spec.operationId, { group, spec }] as const),
  ),
);

export interface RouteRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

/** A query value as a URL carries it: text (the route's schema coerces numbers back). */
const asText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'object' && value !== null
      ? JSON.stringify(value)
      : String(value);

/**
 * The first argument the route would never read, if any: a route without a body reads only its path
 * parameters and its query, and one without a query schema lets any other query parameter through
 * unread. (A route with a body or a query schema refuses unknown names itself.)
 */
export function unreadArgument(spec: EndpointSpec, args: Record<string, unknown>): string | undefined {
  if (spec.body || spec.query) return undefined;
  const paramNames = new Set(shapeKeys(spec.params));
  return Object.keys(args).find((name) => !paramNames.has(name));
}

/** The tool's flat arguments split back into the route's path parameters, query and body. */
export function routeRequest(spec: EndpointSpec, args: Record<string, unknown>): RouteRequest {
  const paramNames = new Set(shapeKeys(spec.params));
  const queryNames = new Set(shapeKeys(spec.query));
  const params = dictionary<string>();
  const query = dictionary<string>();
  const rest = dictionary<unknown>();
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (paramNames.has(name)) params[name] = asText(value);
    else if (queryNames.has(name) || !spec.body) query[name] = asText(value);
    else rest[name] = value;
  }
  return { params, query, body: spec.body ? { ...rest } : undefined };
}

export interface CallerScope {
  /** The MCP request's own event: its authorizer context and request context carry over. */
  event: APIGatewayProxyEvent;
  context: Context;
  handlers: RouteHandlers;
  /** The caller the MCP request's chain loaded for that authorizer context: the route's chain keeps it. */
  caller: UserRecord;
  /** The MCP request's id (its x-request-id): an error the tools cannot name otherwise is logged and answered under it. */
  requestId: string;
  /** What the chain refused in the message's params.arguments (emptied): a tool call answers it as its error. */
  argumentsIssue?: FieldIssue;
}

/** Each group's handler once loaded: a module already in memory is not looked up again on every call. */
const loaded = new WeakMap<() => Promise<ApiHandler>, ApiHandler>();

async function routeHandler(load: () => Promise<ApiHandler>): Promise<ApiHandler> {
  const known = loaded.get(load);
  if (known) return known;
  const handler = await load();
  loaded.set(load, handler);
  return handler;
}

export async function invokeRoute(
  op: Operation,
  request: RouteRequest,
  headers: Record<string, string>,
  scope: CallerScope,
): Promise<APIGatewayProxyResult> {
  const load = scope.handlers[op.group];
  if (!load) throw new Error(`No handler for the ${op.group} group is wired into the MCP function`);
  const handler = await routeHandler(load);
  const path = op.spec.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.params[name] ?? ''));
  const sent = { 'content-type': 'application/json', accept: 'application/json', ...headers };
  const event: APIGatewayProxyEvent = {
    resource: op.spec.path,
    path,
    httpMethod: op.spec.method,
    headers: sent,
    multiValueHeaders: Object.fromEntries(Object.entries(sent).map(([k, v]) => [k, [v]])),
    queryStringParameters: Object.keys(request.query).length ? { ...request.query } : null,
    multiValueQueryStringParameters: Object.keys(request.query).length
      ? Object.fromEntries(Object.entries(request.query).map(([k, v]) => [k, [v]]))
      : null,
    pathParameters: Object.keys(request.params).length ? { ...request.params } : null,
    stageVariables: scope.event.stageVariables,
    body: request.body === undefined ? null : JSON.stringify(request.body),
    isBase64Encoded: false,
    requestContext: { ...scope.event.requestContext, httpMethod: op.spec.method, resourcePath: op.spec.path, path },
  };
  // A context of its own (the chain keeps each request's state on it), vouching for the caller already loaded.
  const context: ApiLambdaContext = { ...scope.context, vouchedCaller: scope.caller };
  return handler(event, context);
}
