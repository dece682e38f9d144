import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from '#shared/zod';
import type { UserRecord } from '#shared/store/usersRepo';
import type { EndpointSpec } from '#shared/schemas/endpoint';
import type { IdempotencyClaim } from '#shared/http/idempotency';
import type { FieldIssue } from '#shared/domain/errors';

type In<T> = T extends z.core.$ZodType ? z.output<T> : Record<string, never>;

/** What a route's implementation receives: the validated request and its caller. */
export interface ApiContext<S extends EndpointSpec = EndpointSpec> {
  body: In<S['body']>;
  query: In<S['query']>;
  params: In<S['params']>;
  /** The authenticated caller: set on every `api_key` endpoint, and on no other. */
  user: S['auth'] extends 'api_key' ? UserRecord : UserRecord | undefined;
  requestId: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  rawBody: string;
  /** This API's base URL including /api/v1, for links in responses. */
  baseUrl: string;
  event: APIGatewayProxyEvent;
  /** The invocation's Lambda context (a route that runs other routes in process hands it on). */
  lambdaContext: Context;
  /** The body's first content problem at the spec's `ownsBodyIssuesAt`, its path from there. */
  bodyIssue?: FieldIssue;
}

export interface Route {
  spec: EndpointSpec;
  handle: (ctx: ApiContext) => Promise<unknown>;
}

/**
 * What the middlewares learn about one request, kept on middy's `request.internal` (one object per
 * invocation), each field written by the one middleware that owns it.
 */
export type RequestState = {
  requestId: string;
  headers: Record<string, string>;
  route?: Route;
  user?: UserRecord;
  rawBody?: string;
  /** The JSON body as parsed (undefined for an empty or raw body). */
  parsedBody?: unknown;
  /** A content problem of the body that its route answers itself (EndpointSpec.ownsBodyIssuesAt). */
  bodyIssue?: FieldIssue;
  ctx?: ApiContext;
  idempotency?: IdempotencyClaim;
  startedAt?: number;
};

/** The Lambda context of an API invocation: it carries the request's state to the route's handler. */
export type ApiLambdaContext = Context & {
  apiRequest?: RequestState;
  /**
   * Set only in process, by a route that runs another route of the same invocation (the MCP tools):
   * the caller its own chain loaded and checked for this very authorizer context, so the inner chain
   * does not read the account a second time. Nothing a caller sends reaches the Lambda context.
   */
  vouchedCaller?: UserRecord;
};

export type ApiRequest = middy.Request<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  ApiLambdaContext,
  RequestState
>;
export type ApiMiddleware = middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  ApiLambdaContext,
  RequestState
>;

/** The matched route of a request that got past routeMatcher; missing, the chain is out of order (a bug, a 500). */
export const routeOf = (request: ApiRequest): Route => {
  const { route } = request.internal;
  if (!route) throw new Error('No route: a middleware ran before routeMatcher');
  return route;
};

/** The route and checked context of a request that got past the chain; missing, it ran out of order (a bug, a 500). */
export const checkedRequest = (state: RequestState | undefined): { route: Route; ctx: ApiContext } => {
  if (!state?.route || !state.ctx) throw new Error('No route or context: a handler ran before the request chain');
  return { route: state.route, ctx: state.ctx };
};

/** The route's name for logs and traces, or what was asked when nothing matched. */
export const routeName = (request: ApiRequest): string => {
  const spec = request.internal.route?.spec;
  return spec ? `${spec.method} ${spec.path}` : `${request.event.httpMethod} (unmatched)`;
};
