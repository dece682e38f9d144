/**
 * The one error hierarchy of the service's rules: each error names a contract error code, a message
 * for the caller and optional details. Domain code throws these and knows nothing of HTTP;
 * shared/http/errors.ts maps each class to its status and the contract's error body.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** Seconds after which a retry may succeed (a 503's Retry-After). */
    readonly retryAfterSeconds?: number,
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

export class ValidationError extends DomainError {
  constructor(message: string, details: FieldIssue[] = []) {
    super('validation_error', message, details);
  }
}
export class UnauthorizedError extends DomainError {
  constructor(message = 'A valid API key is required: send Authorization: Bearer <API_KEY>.') {
    super('unauthorized', message);
  }
}
export class InsufficientCreditsError extends DomainError {
  constructor(required: number, available: number) {
    super('insufficient_credits', `This needs ${required} credits; ${available} are available.`, {
      required,
      available,
    });
  }
}
export class SubscriptionRequiredError extends DomainError {
  constructor() {
    super('subscription_required', 'This endpoint needs an active pro subscription.');
  }
}
export class NotFoundError extends DomainError {
  constructor(what = 'Resource') {
    super('not_found', `${what} not found.`);
  }
}
export class NotAcceptableError extends DomainError {
  constructor(message: string) {
    super('not_acceptable', message);
  }
}
export class ConflictError extends DomainError {
  constructor(
    code: 'email_in_use' | 'quote_token_used' | 'idempotency_conflict' | 'concurrent_update' | 'subscription_active',
    message: string,
  ) {
    super(code, message);
  }
}
export class GoneError extends DomainError {
  constructor(code: 'quote_expired', message: string) {
    super(code, message);
  }
}
export class UnprocessableError extends DomainError {
  constructor(code: 'quote_mismatch' | 'invalid_state', message: string, details?: unknown) {
    super(code, message, details);
  }
}
/** The caller asked again sooner than the operation allows; Retry-After says when it may. */
export class RateLimitedError extends DomainError {
  constructor(message: string, retryAfterSeconds: number) {
    super('rate_limited', message, undefined, retryAfterSeconds);
  }
}
/** The local server's first start: curated endpoints wait for the dataset (progress in details). */
export class DatasetLoadingError extends DomainError {
  /** `total_items` is null until the server knows how many items there are. */
  constructor(progress: { loaded_items: number; total_items: number | null }, retryAfterSeconds: number) {
    super(
      'dataset_loading',
      'The curated dataset is still loading on this server; try again shortly.',
      progress,
      retryAfterSeconds,
    );
  }
}
/**
 * A service the request needs refused the work for now (the pipeline queue did not take a job's
 * messages): nothing was charged, and the same request may succeed after Retry-After. The refusal
 * is the cause, for the log line a 5xx gets; the caller sees only the message.
 */
export class ServiceUnavailableError extends DomainError {
  constructor(message: string, retryAfterSeconds: number, cause?: unknown) {
    super('service_unavailable', message, undefined, retryAfterSeconds);
    if (cause !== undefined) this.cause = cause;
  }
}
