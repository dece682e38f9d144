import * as z from '#shared/zod';
import { baseUrlOf } from '#shared/http/baseUrl';
import { ValidationError } from '#shared/http/errors';
import { parseOrThrow } from '#shared/http/validation';
import { routeOf, type ApiContext, type ApiMiddleware } from './state';

const isEmptyObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

function validBody(spec: ReturnType<typeof routeOf>['spec'], parsed: unknown): unknown {
  if (spec.body) {
    if (parsed === undefined || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      if (!(parsed === undefined && z.safeParse(spec.body, {}).success)) {
        throw new ValidationError('The request body must be a JSON object.', [
          { path: 'body', message: 'Expected a JSON object' },
        ]);
      }
    }
    return parseOrThrow(spec.body, parsed ?? {}, 'body');
  }
  // `{}` is what many JSON clients send on every POST; anything more is a mistake worth a 400.
  if (!spec.rawBody && parsed !== undefined && !isEmptyObject(parsed)) {
    throw new ValidationError('This endpoint takes no request body.', [{ path: 'body', message: 'Unexpected body' }]);
  }
  return undefined;
}

/** Body, query and path parameters checked against the route's zod spec; the result is the route's context. */
export const inputValidation = (): ApiMiddleware => ({
  before: (request) => {
    const { spec } = routeOf(request);
    const { event, internal } = request;
    const body = validBody(spec, internal.parsedBody);
    // `?limit=` means "not given" (its default applies), never the 0 that coercing '' would give.
    const given = Object.fromEntries(Object.entries(event.queryStringParameters ?? {}).filter(([, v]) => v !== ''));
    const query = spec.query ? parseOrThrow(spec.query, given, 'query') : {};
    const params = spec.params ? parseOrThrow(spec.params, event.pathParameters ?? {}, 'path') : {};
    internal.ctx = {
      body,
      query,
      params,
      user: internal.user,
      requestId: internal.requestId,
      headers: internal.headers,
      rawBody: internal.rawBody ?? '',
      baseUrl: baseUrlOf(event),
      event,
      lambdaContext: request.context,
      ...(internal.bodyIssue ? { bodyIssue: internal.bodyIssue } : {}),
    } as ApiContext;
  },
});
