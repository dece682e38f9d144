import type { APIGatewayProxyEvent } from 'aws-lambda';
import { nestsDeeperThan, reservedKeyPath, unrepresentableValue } from '#shared/json';
import type { FieldIssue } from '#shared/domain/errors';
import { MalformedJsonError, PayloadTooLargeError, ValidationError } from '#shared/http/errors';
import { routeOf, type ApiMiddleware } from './state';

export const MAX_BODY_BYTES = 1024 * 1024;
/** No request of the contract nests half as deep; deeper input only serves to exhaust recursion. */
export const MAX_JSON_DEPTH = 64;

/** The request body as text (API Gateway may hand it over base64-encoded). */
export const requestBodyText = (event: APIGatewayProxyEvent) =>
  event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';

/** The first value of a parsed body the API refuses to take as sent, with the sentence its 400 opens with. */
function contentProblem(parsed: unknown): { summary: string; path: string[]; message: string } | undefined {
  const reserved = reservedKeyPath(parsed);
  if (reserved)
    return {
      summary: 'The request body uses a reserved property name.',
      path: reserved,
      message: 'Reserved property name: __proto__',
    };
  const unrepresentable = unrepresentableValue(parsed);
  if (unrepresentable)
    return { summary: 'The request body has a value that cannot be stored as sent.', ...unrepresentable };
  return undefined;
}

/**
 * Empties the route's own place (to {}) when `path` lies within it, reached through own properties
 * of the parsed body only; false, and nothing changed, when it does not.
 */
function emptiedOwnedPlace(parsed: unknown, path: string[], place: readonly string[]): boolean {
  if (place.length === 0 || path.length < place.length || place.some((name, i) => path[i] !== name)) return false;
  let holder: unknown = parsed;
  for (const name of place.slice(0, -1)) {
    if (!holder || typeof holder !== 'object' || Array.isArray(holder) || !Object.hasOwn(holder, name)) return false;
    holder = (holder as Record<string, unknown>)[name];
  }
  if (!holder || typeof holder !== 'object' || Array.isArray(holder)) return false;
  // Only names the route chose (never a caller's `__proto__`) are written here.
  (holder as Record<string, unknown>)[place[place.length - 1]] = {};
  return true;
}

function parseJson(raw: string, ownedPlace: readonly string[] | undefined): { parsed: unknown; issue?: FieldIssue } {
  if (raw.trim() === '') return { parsed: undefined };
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
    throw new ValidationError(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, [
      { path: 'body', message: `Nested deeper than ${MAX_JSON_DEPTH} levels` },
    ]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new MalformedJsonError();
  }
  let issue: FieldIssue | undefined;
  // At most twice round: once the owned place is emptied, a problem found next lies outside it.
  for (let problem = contentProblem(parsed); problem; problem = contentProblem(parsed)) {
    const { summary, path, message } = problem;
    if (!ownedPlace || !emptiedOwnedPlace(parsed, path, ownedPlace))
      throw new ValidationError(summary, [{ path: path.length ? path.join('.') : 'body', message }]);
    const within = path.slice(ownedPlace.length);
    issue ??= { path: within.length ? within.join('.') : ownedPlace[ownedPlace.length - 1], message };
  }
  return { parsed, issue };
}

/** The body within the size limit, as text, and parsed as JSON unless the route takes it raw (signed webhooks). */
export const bodyParser = (): ApiMiddleware => ({
  before: (request) => {
    const { spec } = routeOf(request);
    const raw = spec.rawBody ? (request.event.body ?? '') : requestBodyText(request.event);
    if (Buffer.byteLength(raw, 'utf8') > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
    request.internal.rawBody = raw;
    if (spec.rawBody) return;
    const { parsed, issue } = parseJson(raw, spec.ownsBodyIssuesAt);
    request.internal.parsedBody = parsed;
    if (issue) request.internal.bodyIssue = issue;
  },
});
