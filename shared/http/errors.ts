import type { APIGatewayProxyResult } from 'aws-lambda';
import { NO_STORE } from './cachePolicy';
import {
  ConflictError,
  DatasetLoadingError,
  DomainError,
  GoneError,
  InsufficientCreditsError,
  NotAcceptableError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
  SubscriptionRequiredError,
  UnauthorizedError,
  UnprocessableError,
  ValidationError,
} from '#shared/domain/errors';
import { logger } from '#shared/observability/logger';

export * from '#shared/domain/errors';

/** Transport errors: what the HTTP layer itself refuses before any rule runs. */
export class PayloadTooLargeError extends DomainError {
  constructor(limitBytes: number) {
    super('payload_too_large', `The request body is larger than ${limitBytes} bytes.`);
  }
}
/** A request body that does not parse as JSON (a JSON-RPC operation answers it as a parse error, not an invalid request). */
export class MalformedJsonError extends ValidationError {
  constructor() {
    super('The request body is not valid JSON.', [{ path: 'body', message: 'Malformed JSON' }]);
  }
}
/** Node's HTTP parser gave up on a request line or headers over its limit (16 KiB by default). */
export class RequestHeaderTooLargeError extends DomainError {
  constructor() {
    super('request_header_too_large', 'The request line or headers are larger than this server accepts.');
  }
}
/** The request's headers or body did not arrive within the server's request timeout. */
export class RequestTimeoutError extends DomainError {
  constructor() {
    super('request_timeout', 'The request did not arrive in time.');
  }
}

/** A browser page of another site (an `Origin` the service does not serve) calling an endpoint that refuses cross-site callers. */
export class OriginNotAllowedError extends DomainError {
  constructor(origin: string) {
    super(
      'origin_not_allowed',
      `Requests from the origin ${JSON.stringify(origin.slice(0, 200))} are not accepted here.`,
    );
  }
}

/** A path the API has, with a method it does not declare there; `allow` lists the ones it does. */
export class MethodNotAllowedError extends DomainError {
  constructor(readonly allow: readonly string[]) {
    super('method_not_allowed', `This path answers ${allow.join(', ')} only.`);
  }
}

/** Each error class's HTTP status: the only place statuses are chosen. */
const STATUS_OF = new Map<abstract new (...args: never[]) => DomainError, number>([
  [ValidationError, 400],
  [UnauthorizedError, 401],
  [InsufficientCreditsError, 402],
  [SubscriptionRequiredError, 403],
  [OriginNotAllowedError, 403],
  [NotFoundError, 404],
  [MethodNotAllowedError, 405],
  [NotAcceptableError, 406],
  [RequestTimeoutError, 408],
  [ConflictError, 409],
  [GoneError, 410],
  [PayloadTooLargeError, 413],
  [UnprocessableError, 422],
  [RateLimitedError, 429],
  [RequestHeaderTooLargeError, 431],
  [DatasetLoadingError, 503],
  [ServiceUnavailableError, 503],
]);

/** Headers a status carries by the HTTP specification. */
function headersOf(err: DomainError): Record<string, string> {
  if (err instanceof UnauthorizedError) return { 'WWW-Authenticate': 'Bearer' };
  if (err instanceof MethodNotAllowedError) return { Allow: err.allow.join(', ') };
  if (err.retryAfterSeconds !== undefined) return { 'Retry-After': String(err.retryAfterSeconds) };
  return {};
}

/**
 * The status of an error the contract names; undefined for any other (a 500 that shows nothing).
 * The nearest mapped class up the prototype chain decides, so a subclass of a mapped error (a more
 * specific not-found, say) answers its parent's status instead of falling through to 500.
 */
export function statusOf(err: DomainError): number | undefined {
  for (
    let proto: object | null = Object.getPrototypeOf(err);
    proto !== null && proto !== DomainError.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    const status = STATUS_OF.get(proto.constructor as abstract new (...args: never[]) => DomainError);
    if (status !== undefined) return status;
  }
  return undefined;
}

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
  request_id: string;
}

/** AWS error names that mean "too many requests right now": the same request may succeed shortly. */
const AWS_THROTTLING = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
]);
const THROTTLED_RETRY_AFTER_SECONDS = 1;

/**
 * An AWS service still throttling after the SDK's own retries (a DynamoDB table or index over its
 * capacity, an SQS or EventBridge limit) is not a bug: the caller hears 503 with Retry-After rather
 * than 500. Nothing was written (a throttled transaction is cancelled whole); the log keeps the cause.
 */
function throttledAsUnavailable(err: unknown): DomainError | undefined {
  if (!(err instanceof Error)) return undefined;
  const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  const throttled =
    AWS_THROTTLING.has(err.name) ||
    (err.name === 'TransactionCanceledException' && !!reasons?.some((r) => r.Code === 'ThrottlingError'));
  return throttled
    ? new ServiceUnavailableError('The service is busy; try again shortly.', THROTTLED_RETRY_AFTER_SECONDS, err)
    : undefined;
}

export function toErrorResponse(
  thrown: unknown,
  requestId: string,
): { status: number; body: ErrorBody; headers: Record<string, string> } {
  const err = thrown instanceof DomainError ? thrown : (throttledAsUnavailable(thrown) ?? thrown);
  const status = err instanceof DomainError ? statusOf(err) : undefined;
  if (err instanceof DomainError && status !== undefined) {
    const error: ErrorBody['error'] = { code: err.code, message: err.message };
    if (err.details !== undefined) error.details = err.details;
    return { status, body: { error, request_id: requestId }, headers: headersOf(err) };
  }
  return {
    status: 500,
    body: { error: { code: 'internal_error', message: 'An internal error occurred.' }, request_id: requestId },
    headers: {},
  };
}

/** The contract's error answer as a Lambda proxy result: never cached, named by its request id. */
export const errorProxyResult = (
  mapped: ReturnType<typeof toErrorResponse>,
  requestId: string,
): APIGatewayProxyResult => ({
  statusCode: mapped.status,
  headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...NO_STORE, ...mapped.headers },
  body: JSON.stringify(mapped.body),
});

/** JSON-RPC 2.0's codes for a message the server cannot read: not JSON at all, or JSON that is not one request. */
const JSON_RPC_PARSE_ERROR = -32700;
const JSON_RPC_INVALID_REQUEST = -32600;

/**
 * A refusal of the body of an operation that speaks JSON-RPC (EndpointSpec.jsonRpcErrors), answered
 * as the protocol answers it: its clients read `error.code` as a number and would not understand
 * ErrorBody. The id is null, as JSON-RPC wants when no request could be read; the API's own code,
 * details and request id travel in `data`.
 */
export function jsonRpcErrorResult(err: ValidationError, requestId: string): APIGatewayProxyResult {
  const parse = err instanceof MalformedJsonError;
  const message = parse
    ? `Parse error: ${err.message}`
    : `Invalid Request: ${err.message} The body must be one JSON-RPC message; batches are not served.`;
  const data = {
    code: err.code,
    ...(err.details !== undefined ? { details: err.details } : {}),
    request_id: requestId,
  };
  return {
    statusCode: 400,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...NO_STORE },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: { code: parse ? JSON_RPC_PARSE_ERROR : JSON_RPC_INVALID_REQUEST, message, data },
    }),
  };
}

/** One structured log line for an error the caller is not shown (5xx): the details stay in the logs. */
export function logServerError(requestId: string, err: unknown): void {
  logger.error('request failed', { requestId, error: err instanceof Error ? err : String(err) });
}
