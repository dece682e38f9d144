import * as apigateway from 'aws-cdk-lib/aws-apigateway';

interface GatewayError {
  type: apigateway.ResponseType;
  /** Omitted: API Gateway keeps the status of the underlying error (DEFAULT_4XX/5XX families). */
  status?: string;
  code: string;
  /** A JSON string literal, or a `$context` variable that API Gateway renders already quoted. */
  message: string;
  headers?: Record<string, string>;
}

const quoted = (message: string) => JSON.stringify(message);

/**
 * Errors API Gateway answers itself, before any Lambda runs, reshaped into the contract's error body
 * so a client sees one format whoever refused the request. Messages repeat the Lambdas' own
 * (shared/http/errors.ts).
 */
export const GATEWAY_ERRORS: GatewayError[] = [
  // The authorizer refused the key (or none was sent).
  {
    type: apigateway.ResponseType.UNAUTHORIZED,
    status: '401',
    code: 'unauthorized',
    message: quoted('A valid API key is required: send Authorization: Bearer <API_KEY>.'),
    headers: { 'WWW-Authenticate': "'Bearer'" },
  },
  // A Deny policy from the authorizer. Ours only ever allows or refuses with 401, and the contract
  // has no 403 for keys ("missing, malformed, unknown or revoked key" is 401), so it reads the same.
  {
    type: apigateway.ResponseType.ACCESS_DENIED,
    status: '401',
    code: 'unauthorized',
    message: quoted('A valid API key is required: send Authorization: Bearer <API_KEY>.'),
    headers: { 'WWW-Authenticate': "'Bearer'" },
  },
  // What a REST API answers for an unknown path or method: a 403 that should be a 404.
  {
    type: apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN,
    status: '404',
    code: 'not_found',
    message: quoted('Endpoint not found.'),
  },
  // API Gateway's own 10 MB limit; the Lambdas enforce the contract's 1 MiB with the same code.
  {
    type: apigateway.ResponseType.REQUEST_TOO_LARGE,
    status: '413',
    code: 'payload_too_large',
    message: quoted('The request body is larger than 10485760 bytes.'),
  },
  {
    type: apigateway.ResponseType.THROTTLED,
    status: '429',
    code: 'rate_limited',
    message: quoted('Too many requests.'),
    headers: { 'Retry-After': "'1'" },
  },
  // Anything else API Gateway refuses (no request validators or binary types are configured, so
  // these are not expected): its own message, in our shape.
  { type: apigateway.ResponseType.DEFAULT_4XX, code: 'bad_request', message: '$context.error.messageString' },
  // Authorizer failures, integration errors and timeouts: never leak AWS error text.
  { type: apigateway.ResponseType.DEFAULT_5XX, code: 'internal_error', message: quoted('An internal error occurred.') },
];

export const errorTemplate = (code: string, message: string): string =>
  `{"error":{"code":"${code}","message":${message}},"request_id":"$context.requestId"}`;

export function addGatewayErrors(api: apigateway.RestApi): void {
  for (const error of GATEWAY_ERRORS) {
    api.addGatewayResponse(error.type.responseType, {
      type: error.type,
      statusCode: error.status,
      responseHeaders: {
        'Content-Type': "'application/json'",
        'x-request-id': 'context.requestId',
        ...error.headers,
      },
      templates: { 'application/json': errorTemplate(error.code, error.message) },
    });
  }
}
