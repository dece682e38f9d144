import { logger } from '../observability/logger';
/**
 * The one error hierarchy of the service. Every non-2xx response is built from an AppError by
 * `toErrorBody`; anything else becomes a 500 whose message never leaks internals.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export interface FieldIssue {
  path: string;
  message: string;
  /** Values that would be accepted here, nearest first (slot values the taxonomy does not know). */
  suggestions?: string[];
}

export class ValidationError extends AppError {
  constructor(message: string, details: FieldIssue[] = []) {
    super(400, 'validation_error', message, details);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'A valid API key is required: send Authorization: Bearer <API_KEY>.') {
    super(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer' });
  }
}
export class InsufficientCreditsError extends AppError {
  constructor(required: number, available: number) {
    super(402, 'insufficient_credits', `This needs ${required} credits; ${available} are available.`, {
      required,
      available,
    });
  }
}
export class SubscriptionRequiredError extends AppError {
  constructor() {
    super(403, 'subscription_required', 'This endpoint needs an active pro subscription.');
  }
}
export class NotFoundError extends AppError {
  constructor(what = 'Resource') {
    super(404, 'not_found', `${what} not found.`);
  }
}
export class NotAcceptableError extends AppError {
  constructor(message: string) {
    super(406, 'not_acceptable', message);
  }
}
export class ConflictError extends AppError {
  constructor(code: 'email_in_use' | 'quote_token_used' | 'idempotency_conflict' | 'concurrent_update', message: string) {
    super(409, code, message);
  }
}
export class GoneError extends AppError {
  constructor(code: 'quote_expired', message: string) {
    super(410, code, message);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(413, 'payload_too_large', `The request body is larger than ${limitBytes} bytes.`);
  }
}
/** Node's HTTP parser gave up on a request line or headers over its limit (16 KiB by default). */
export class RequestHeaderTooLargeError extends AppError {
  constructor() {
    super(431, 'request_header_too_large', 'The request line or headers are larger than this server accepts.');
  }
}
/** The request's headers or body did not arrive within the server's request timeout. */
export class RequestTimeoutError extends AppError {
  constructor() {
    super(408, 'request_timeout', 'The request did not arrive in time.');
  }
}
export class UnprocessableError extends AppError {
  constructor(code: 'quote_mismatch' | 'invalid_state', message: string, details?: unknown) {
    super(422, code, message, details);
  }
}
/** The local server's first start: curated endpoints wait for the dataset (progress in details). */
export class DatasetLoadingError extends AppError {
  constructor(progress: { loaded_items: number; total_items: number }, retryAfterSeconds: number) {
    super(503, 'dataset_loading', 'The curated dataset is still loading on this server; try again shortly.', progress, { 'Retry-After': String(retryAfterSeconds) });
  }
}

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
  request_id: string;
}

export function toErrorResponse(err: unknown, requestId: string): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (err instanceof AppError) {
    const error: ErrorBody['error'] = { code: err.code, message: err.message };
    if (err.details !== undefined) error.details = err.details;
    return { status: err.status, body: { error, request_id: requestId }, headers: err.headers };
  }
  return {
    status: 500,
    body: { error: { code: 'internal_error', message: 'An internal error occurred.' }, request_id: requestId },
    headers: {},
  };
}

/** One structured log line for an error the caller is not shown (5xx): the details stay in the logs. */
export function logServerError(requestId: string, err: unknown): void {
  logger.error('request failed', { requestId, error: err instanceof Error ? err : String(err) });
}
