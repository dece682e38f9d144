import type { APIGatewayProxyEvent } from 'aws-lambda';
import { nestsDeeperThan, reservedKeyPath, unrepresentableValue } from '#shared/json';
import { PayloadTooLargeError, ValidationError } from '#shared/http/errors';
import { routeOf, type ApiMiddleware } from './state';

export const MAX_BODY_BYTES = 1024 * 1024;
/** No request of the contract nests half as deep; deeper input only serves to exhaust recursion. */
export const MAX_JSON_DEPTH = 64;

/** The request body as text (API Gateway may hand it over base64-encoded). */
export const requestBodyText = (event: APIGatewayProxyEvent) =>
  event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';

function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
    throw new ValidationError(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, [
      { path: 'body', message: `Nested deeper than ${MAX_JSON_DEPTH} levels` },
    ]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ValidationError('The request body is not valid JSON.', [{ path: 'body', message: 'Malformed JSON' }]);
  }
  const reserved = reservedKeyPath(parsed);
  if (reserved)
    throw new ValidationError('The request body uses a reserved property name.', [
      { path: reserved.join('.'), message: 'Reserved property name: __proto__' },
    ]);
  const unrepresentable = unrepresentableValue(parsed);
  if (unrepresentable) {
    const { path, message } = unrepresentable;
    throw new ValidationError('The request body has a value that cannot be stored as sent.', [
      { path: path.length ? path.join('.') : 'body', message },
    ]);
  }
  return parsed;
}

/** The body within the size limit, as text, and parsed as JSON unless the route takes it raw (signed webhooks). */
export const bodyParser = (): ApiMiddleware => ({
  before: (request) => {
    const raw = routeOf(request).spec.rawBody ? (request.event.body ?? '') : requestBodyText(request.event);
    if (Buffer.byteLength(raw, 'utf8') > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
    request.internal.rawBody = raw;
    request.internal.parsedBody = routeOf(request).spec.rawBody ? undefined : parseJson(raw);
  },
});
