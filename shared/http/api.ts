import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type * as z from '#shared/zod';
import { meterCredits } from '#shared/domain/credits/creditMeter';
import { logger } from '#shared/observability/logger';
import { cachePolicy } from './cachePolicy';
import { authentication } from './chain/authentication';
import { bodyParser } from './chain/bodyParser';
import { errorResponder } from './chain/errorResponder';
import { idempotency } from './chain/idempotency';
import { inputValidation } from './chain/inputValidation';
import { requestScope } from './chain/requestScope';
import { routeMatcher } from './chain/routeMatcher';
import {
  checkedRequest,
  type ApiContext,
  type ApiLambdaContext,
  type ApiMiddleware,
  type RequestState,
  type Route,
} from './chain/state';
import { subscriptionCheck } from './chain/subscriptionCheck';
import { accessLog, callerTelemetry } from './chain/telemetry';
import type { EndpointSpec } from '#shared/schemas/endpoint';
import { HttpResponse } from './response';

export type { ApiContext, Route } from './chain/state';
export { MAX_BODY_BYTES, MAX_JSON_DEPTH } from './chain/bodyParser';
export { baseUrlOf } from './baseUrl';
export { NO_STORE } from './cachePolicy';
export { lowerCaseHeaders } from './headers';

/** What an implementation may answer: the spec's response shape (as zod accepts it), or a response of its own making. */
export type ResponseOf<S extends EndpointSpec> = S['response'] extends z.core.$ZodType
  ? z.input<S['response']> | HttpResponse
  : unknown;

/** The operations a group's function serves: all of its specs but the streamed one (its own function). */
type Served<E extends Record<string, EndpointSpec>> = {
  [K in keyof E as E[K] extends { streaming: true } ? never : K]: E[K];
};

/**
 * One implementation per operation of the group, by the spec's key: a spec without one, an
 * implementation without a spec, or one answering another shape does not compile.
 */
export type Implementations<E extends Record<string, EndpointSpec>> = {
  [K in keyof Served<E>]: (ctx: ApiContext<Served<E>[K]>) => Promise<ResponseOf<Served<E>[K]>>;
};

function toResult(result: unknown, spec: EndpointSpec, requestId: string): APIGatewayProxyResult {
  const base = { 'x-request-id': requestId, ...cachePolicy(spec) };
  if (result instanceof HttpResponse) {
    if (result.status === 204 || result.body === undefined)
      return { statusCode: result.status, headers: { ...base, ...result.headers }, body: '' };
    if (result.contentType)
      return {
        statusCode: result.status,
        headers: { ...base, 'content-type': result.contentType, ...result.headers },
        body: String(result.body),
      };
    return {
      statusCode: result.status,
      headers: { ...base, 'content-type': 'application/json', ...result.headers },
      body: JSON.stringify(result.body),
    };
  }
  const status = spec.successStatus ?? 200;
  if (status === 204) return { statusCode: 204, headers: base, body: '' };
  return { statusCode: status, headers: { ...base, 'content-type': 'application/json' }, body: JSON.stringify(result) };
}

/**
 * What every request passes before its route runs, JSON and streamed routes alike: error mapping
 * (registered first so its onError runs last), request id, route, caller, subscription, body,
 * validation, then the log keys.
 */
const requestChecks = (routes: Route[]): ApiMiddleware[] => [
  errorResponder(),
  requestScope(),
  routeMatcher(routes),
  authentication(),
  subscriptionCheck(),
  bodyParser(),
  inputValidation(),
  callerTelemetry(),
];

/**
 * One Lambda handler serving a group's route table through the shared chain, one concern per
 * middleware: Lambda context on the logs, the access line, error mapping, request id,
 * route, caller, subscription, body, validation, log keys, Idempotency-Key.
 */
export function createApiHandler<E extends Record<string, EndpointSpec>>(
  endpoints: E,
  implementations: Implementations<E>,
) {
  const routes: Route[] = Object.entries(implementations as Record<string, Route['handle']>).map(([name, handle]) => ({
    spec: endpoints[name],
    handle,
  }));
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiLambdaContext, RequestState>({
    timeoutEarlyInMillis: 0,
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(accessLog())
    .use(requestChecks(routes))
    .use(idempotency())
    .handler(async (_event, context) => {
      const { route, ctx } = checkedRequest(context.apiRequest);
      // Every response that spends or refunds the caller's credits says so.
      const { result, headers } = await meterCredits(ctx.user?.id, () => route.handle(ctx));
      const response = toResult(result, route.spec, ctx.requestId);
      return { ...response, headers: { ...response.headers, ...headers } };
    });
}

/** What a streaming route's gate answers when the request may be streamed: its checked context. */
export type GateOutcome<S extends EndpointSpec> =
  | { ready: true; ctx: ApiContext<S> }
  | { ready: false; response: APIGatewayProxyResult };

/**
 * For a route served by a response-streaming function: the same chain up to the route's context
 * (request id, caller, subscription, validation, log and trace keys, error mapping), then `check`
 * (content negotiation, ownership). An error is the contract's JSON error response; otherwise the
 * function streams with the checked context. Nothing of it is written twice.
 */
export function createStreamGate<S extends EndpointSpec>(spec: S, check: (ctx: ApiContext<S>) => Promise<void>) {
  const ready: APIGatewayProxyResult = { statusCode: 200, headers: {}, body: '' };
  const gate = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiLambdaContext, RequestState>({
    timeoutEarlyInMillis: 0,
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(requestChecks([{ spec, handle: async () => undefined }]))
    .handler(async (_event, context) => {
      await check(checkedRequest(context.apiRequest).ctx as ApiContext<S>);
      return ready;
    });
  return async (event: APIGatewayProxyEvent, context: ApiLambdaContext): Promise<GateOutcome<S>> => {
    const response = await gate(event, context);
    const ctx = context.apiRequest?.ctx;
    return response === ready && ctx ? { ready: true, ctx: ctx as ApiContext<S> } : { ready: false, response };
  };
}
