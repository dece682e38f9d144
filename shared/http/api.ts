import middy, { type MiddlewareObj } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod';
import { optionalEnv } from '../config/env';
import { now } from '../adapters/ports';
import { loadCaller } from '../domain/accounts/accounts';
import { uuidv7 } from '../ids';
import { dictionary } from '../dictionary';
import { canonicalJson, nestsDeeperThan, reservedKeyPath } from '../json';
import { logger } from '../observability/logger';
import { tracer } from '../observability/tracer';
import { meterCredits } from '../domain/credits/creditMeter';
import type { UserRecord } from '../store/usersRepo';
import type { EndpointSpec } from './endpoint';
import { AppError, NotFoundError, PayloadTooLargeError, SubscriptionRequiredError, ValidationError, logServerError, toErrorResponse } from './errors';
import { beginIdempotentRequest, finishIdempotentRequest, type IdempotencyClaim } from './idempotency';
import { HttpResponse } from './response';
import { parseOrThrow } from './validation';

export const MAX_BODY_BYTES = 1024 * 1024;
/** No request of the contract nests half as deep; deeper input only serves to exhaust recursion. */
export const MAX_JSON_DEPTH = 64;
/** The API functions' timeout (infra/appFunction.ts), for a context that cannot tell its remaining time. */
const DEFAULT_LEASE_MS = 30_000;

type In<T> = T extends z.ZodType ? z.infer<T> : Record<string, never>;

export interface ApiContext<S extends EndpointSpec = EndpointSpec> {
  body: In<S['body']>;
  query: In<S['query']>;
  params: In<S['params']>;
  /** The authenticated caller (always set on `api_key` endpoints). */
  user: UserRecord;
  requestId: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  rawBody: string;
  /** This API's base URL including /api/v1, for links in responses. */
  baseUrl: string;
  event: APIGatewayProxyEvent;
}

export interface Route {
  spec: EndpointSpec;
  handle: (ctx: ApiContext<any>) => Promise<unknown>;
}

/** Binds an implementation to an endpoint spec. */
export const route = <S extends EndpointSpec>(spec: S, handle: (ctx: ApiContext<S>) => Promise<unknown>): Route => ({ spec, handle });

interface RequestState {
  requestId: string;
  headers: Record<string, string>;
  route?: Route;
  ctx?: ApiContext;
  idempotency?: IdempotencyClaim;
}

type Req = middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;
const states = new WeakMap<object, RequestState>();
const stateOf = (request: Req): RequestState => states.get(request.event)!;

export function lowerCaseHeaders(headers: Record<string, string | undefined> | null | undefined): Record<string, string> {
  // Header names are the caller's: `constructor` or `__proto__` must be keys like any other.
  const out = dictionary<string>();
  for (const [k, v] of Object.entries(headers ?? {})) if (v !== undefined) out[k.toLowerCase()] = v;
  return out;
}

/**
 * The service's own public base URL, for the links it hands out (checkout, exports, the OpenAPI
 * servers entry). Configured (PUBLIC_BASE_URL: the local runtime's own address, or an operator's
 * custom domain), else API Gateway's own record of the domain and stage it was called on. Never the
 * caller's Host or X-Forwarded-* headers: those would let one caller choose where links point.
 */
export function baseUrlOf(event: APIGatewayProxyEvent): string {
  const configured = optionalEnv('PUBLIC_BASE_URL');
  if (configured) return configured.replace(/\/+$/, '');
  const domain = event.requestContext?.domainName ?? 'localhost';
  // The local server names its own listening address; it speaks plain HTTP.
  const proto = domain.startsWith('localhost:') || domain.startsWith('127.0.0.1:') ? 'http' : 'https';
  // execute-api domains carry the stage in the path; a custom domain maps it away.
  const stage = domain.includes('.execute-api.') && event.requestContext?.stage ? `/${event.requestContext.stage}` : '';
  return `${proto}://${domain}${stage}/api/v1`;
}

/** A caller's own data or a secret (a rotated key) must never sit in a shared or browser cache. */
export const NO_STORE = { 'cache-control': 'no-store' } as const;
const cachePolicy = (spec: EndpointSpec): Record<string, string> => (spec.auth === 'api_key' ? NO_STORE : {});

function toResult(result: unknown, spec: EndpointSpec, requestId: string): APIGatewayProxyResult {
  const base = { 'x-request-id': requestId, ...cachePolicy(spec) };
  if (result instanceof HttpResponse) {
    if (result.status === 204 || result.body === undefined) return { statusCode: result.status, headers: { ...base, ...result.headers }, body: '' };
    if (result.contentType) return { statusCode: result.status, headers: { ...base, 'content-type': result.contentType, ...result.headers }, body: String(result.body) };
    return { statusCode: result.status, headers: { ...base, 'content-type': 'application/json', ...result.headers }, body: JSON.stringify(result.body) };
  }
  const status = spec.successStatus ?? 200;
  if (status === 204) return { statusCode: 204, headers: base, body: '' };
  return { statusCode: status, headers: { ...base, 'content-type': 'application/json' }, body: JSON.stringify(result) };
}

const requestScope = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: (request) => {
    const requestId = request.event.requestContext?.requestId ?? uuidv7();
    states.set(request.event, { requestId, headers: lowerCaseHeaders(request.event.headers) });
  },
});

/** Registered first so it runs last: every error becomes the contract's body, 5xx without internals. */
const errorResponder = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  onError: async (request) => {
    const state = states.get(request.event) ?? { requestId: uuidv7(), headers: {} };
    const mapped = toErrorResponse(request.error, state.requestId);
    if (mapped.status >= 500) {
      logger.appendKeys({ requestId: state.requestId, route: routeOf(request) });
      logServerError(state.requestId, request.error);
    }
    request.response = {
      statusCode: mapped.status,
      headers: { 'content-type': 'application/json', 'x-request-id': state.requestId, ...NO_STORE, ...mapped.headers },
      body: JSON.stringify(mapped.body),
    };
    if (state.idempotency) await finishIdempotentRequest(state.idempotency, request.response).catch(() => undefined);
  },
});

const routeMatcher = (routes: Route[]): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const table = new Map(routes.map((r) => [`${r.spec.method} ${r.spec.path}`, r]));
  return {
    before: (request) => {
      const state = stateOf(request);
      state.route = table.get(`${request.event.httpMethod} ${request.event.resource}`);
      if (!state.route) throw new NotFoundError('Endpoint');
    },
  };
};

const isEmptyObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

function rawBodyOf(event: APIGatewayProxyEvent): { raw: string; parsed: undefined } {
  const raw = event.body ?? '';
  if (Buffer.byteLength(raw, 'utf8') > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
  return { raw, parsed: undefined };
}

function parseJsonBody(event: APIGatewayProxyEvent): { raw: string; parsed: unknown } {
  const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
  if (Buffer.byteLength(raw, 'utf8') > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
  if (raw.trim() === '') return { raw, parsed: undefined };
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
    throw new ValidationError(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, [{ path: 'body', message: `Nested deeper than ${MAX_JSON_DEPTH} levels` }]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ValidationError('The request body is not valid JSON.', [{ path: 'body', message: 'Malformed JSON' }]);
  }
  const reserved = reservedKeyPath(parsed);
  if (reserved) throw new ValidationError('The request body uses a reserved property name.', [{ path: reserved.join('.'), message: 'Reserved property name: __proto__' }]);
  return { raw, parsed };
}

/** Auth, subscription check, body parsing and validation, then the Idempotency-Key claim. */
const inputGate = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    const state = stateOf(request);
    const { spec } = state.route!;
    const event = request.event;
    const authorizer = (event.requestContext?.authorizer ?? {}) as Record<string, string | undefined>;
    const user = spec.auth === 'api_key' ? await loadCaller(authorizer.userId, authorizer.keyHash) : (undefined as unknown as UserRecord);
    if (spec.paid && !(user.tier === 'pro' && user.subscriptionStatus === 'active')) throw new SubscriptionRequiredError();

    const { raw, parsed } = spec.rawBody ? rawBodyOf(event) : parseJsonBody(event);
    let body: unknown = undefined;
    if (spec.body) {
      if (parsed === undefined || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        if (!(parsed === undefined && spec.body.safeParse({}).success)) {
          throw new ValidationError('The request body must be a JSON object.', [{ path: 'body', message: 'Expected a JSON object' }]);
        }
      }
      body = parseOrThrow(spec.body, parsed ?? {}, 'body');
    } else if (!spec.rawBody && parsed !== undefined && !isEmptyObject(parsed)) {
      // `{}` is what many JSON clients send on every POST; anything more is a mistake worth a 400.
      throw new ValidationError('This endpoint takes no request body.', [{ path: 'body', message: 'Unexpected body' }]);
    }
    // `?limit=` means "not given" (its default applies), never the 0 that coercing '' would give.
    const given = Object.fromEntries(Object.entries(event.queryStringParameters ?? {}).filter(([, v]) => v !== ''));
    const query = spec.query ? parseOrThrow(spec.query, given, 'query') : {};
    const params = spec.params ? parseOrThrow(spec.params, event.pathParameters ?? {}, 'path') : {};

    state.ctx = { body, query, params, user, requestId: state.requestId, headers: state.headers, rawBody: raw, baseUrl: baseUrlOf(event), event } as ApiContext;

    const key = state.headers['idempotency-key'];
    if (spec.idempotent && key !== undefined && user) {
      // The parsed request, canonicalised: a retry that re-serialises the same JSON differently still matches.
      const fingerprint = `${spec.method} ${event.path} ${canonicalJson(event.queryStringParameters ?? {})} ${spec.rawBody ? raw : canonicalJson(parsed ?? null)}`;
      // The claim lasts as long as this invocation can: after that its request is dead and the key free again.
      const leaseMs = request.context?.getRemainingTimeInMillis?.() ?? DEFAULT_LEASE_MS;
      const begun = await beginIdempotentRequest(user.id, key, fingerprint, now().getTime(), leaseMs);
      if ('replay' in begun) return { ...begun.replay, headers: { ...begun.replay.headers, 'x-request-id': state.requestId } };
      state.idempotency = begun.claim;
    }
    return undefined;
  },
});

const routeOf = (request: Req): string => {
  const spec = states.get(request.event)?.route?.spec;
  return spec ? `${spec.method} ${spec.path}` : `${request.event.httpMethod} (unmatched)`;
};

/**
 * One access line per request (route, status, duration), whatever the outcome. Registered before
 * the error responder so that, on an error, it runs after the response was mapped.
 */
const accessLog = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const started = new WeakMap<object, number>();
  const write = (request: Req) => {
    const since = started.get(request.event);
    logger.appendKeys({ requestId: states.get(request.event)?.requestId, route: routeOf(request) });
    logger.info('request', { status: request.response?.statusCode, durationMs: since === undefined ? undefined : Date.now() - since });
  };
  return { before: (request) => void started.set(request.event, Date.now()), after: write, onError: write };
};

/** Once the caller is known: route and user id on every later log line and on the trace. */
const callerTelemetry = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: (request) => {
    const state = stateOf(request);
    const route = routeOf(request);
    const userId = state.ctx?.user?.id;
    logger.appendKeys({ requestId: state.requestId, route, userId });
    tracer.putAnnotation('route', route);
    if (userId) tracer.putAnnotation('userId', userId);
  },
});

const idempotencyRecorder = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  after: async (request) => {
    const state = stateOf(request);
    if (state.idempotency && request.response) await finishIdempotentRequest(state.idempotency, request.response);
  },
});

/** One Lambda handler serving a group's route table through the shared chain. */
export function createApiHandler(routes: Route[]) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>({ timeoutEarlyInMillis: 0 })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(captureLambdaHandler(tracer, { captureResponse: false }))
    .use(accessLog())
    .use(errorResponder())
    .use(requestScope())
    .use(routeMatcher(routes))
    .use(inputGate())
    .use(callerTelemetry())
    .use(idempotencyRecorder())
    .handler(async (event) => {
      const state = states.get(event)!;
      // Every response that spends or refunds the caller's credits says so (contract 11).
      const { result, headers } = await meterCredits(state.ctx!.user?.id, () => state.route!.handle(state.ctx!));
      const response = toResult(result, state.route!.spec, state.requestId);
      return { ...response, headers: { ...response.headers, ...headers } };
    });
}

export { AppError };
