import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod';
import { now } from '../adapters/ports';
import { loadCaller } from '../domain/accounts/accounts';
import { uuidv7 } from '../ids';
import { meterCredits } from '../domain/credits/creditMeter';
import { canonicalJson } from '../json';
import type { UserRecord } from '../store/usersRepo';
import type { EndpointSpec } from './endpoint';
import { AppError, NotFoundError, PayloadTooLargeError, SubscriptionRequiredError, ValidationError, logServerError, toErrorResponse } from './errors';
import { beginIdempotentRequest, finishIdempotentRequest, type IdempotencyClaim } from './idempotency';
import { HttpResponse } from './response';
import { parseOrThrow } from './validation';

export const MAX_BODY_BYTES = 1024 * 1024;
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
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) if (v !== undefined) out[k.toLowerCase()] = v;
  return out;
}

export function baseUrlOf(event: APIGatewayProxyEvent, headers: Record<string, string>): string {
  const host = headers['x-forwarded-host'] ?? headers.host ?? event.requestContext?.domainName ?? 'localhost';
  const proto = headers['x-forwarded-proto'] ?? (host.startsWith('localhost') || host.startsWith('127.') ? 'http' : 'https');
  const stage = event.requestContext?.stage && event.requestContext.stage !== '$default' && !host.startsWith('localhost') && !host.startsWith('127.') ? `/${event.requestContext.stage}` : '';
  return `${proto}://${host}${stage}/api/v1`;
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
    if (mapped.status >= 500) logServerError(state.requestId, request.error);
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
  try {
    return { raw, parsed: JSON.parse(raw) };
  } catch {
    throw new ValidationError('The request body is not valid JSON.', [{ path: 'body', message: 'Malformed JSON' }]);
  }
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

    state.ctx = { body, query, params, user, requestId: state.requestId, headers: state.headers, rawBody: raw, baseUrl: baseUrlOf(event, state.headers), event } as ApiContext;

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

const idempotencyRecorder = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  after: async (request) => {
    const state = stateOf(request);
    if (state.idempotency && request.response) await finishIdempotentRequest(state.idempotency, request.response);
  },
});

/** One Lambda handler serving a group's route table through the shared chain. */
export function createApiHandler(routes: Route[]) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>({ timeoutEarlyInMillis: 0 })
    .use(errorResponder())
    .use(requestScope())
    .use(routeMatcher(routes))
    .use(inputGate())
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
