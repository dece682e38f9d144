import { now } from '#shared/adapters/ports';
import { canonicalJson } from '#shared/json';
import { beginIdempotentRequest, finishIdempotentRequest } from '#shared/http/idempotency';
import { routeOf, type ApiMiddleware } from './state';

/** The API functions' timeout (infra/appFunction.ts), for a context that cannot tell its remaining time. */
const DEFAULT_LEASE_MS = 30_000;

/**
 * Idempotency-Key on the routes that take one: the first request claims the key, a retry of the same
 * request replays the stored answer, a different request with the key is refused; the answer is
 * stored once the route answered (errorResponder stores error answers).
 */
export const idempotency = (): ApiMiddleware => ({
  before: async (request) => {
    const { spec } = routeOf(request);
    const { event, internal } = request;
    const key = internal.headers['idempotency-key'];
    if (!spec.idempotent || key === undefined || !internal.user) return undefined;
    // The parsed request, canonicalised: a retry that re-serialises the same JSON differently still matches.
    const fingerprint = `${spec.method} ${event.path} ${canonicalJson(event.queryStringParameters ?? {})} ${spec.rawBody ? internal.rawBody : canonicalJson(internal.parsedBody ?? null)}`;
    // The claim lasts as long as this invocation can: after that its request is dead and the key free again.
    const leaseMs = request.context?.getRemainingTimeInMillis?.() ?? DEFAULT_LEASE_MS;
    const begun = await beginIdempotentRequest(internal.user.id, key, fingerprint, now().getTime(), leaseMs);
    if ('replay' in begun)
      return { ...begun.replay, headers: { ...begun.replay.headers, 'x-request-id': internal.requestId } };
    internal.idempotency = begun.claim;
    return undefined;
  },
  after: async (request) => {
    if (request.internal.idempotency && request.response)
      await finishIdempotentRequest(request.internal.idempotency, request.response, routeOf(request).spec.sealsReplay);
  },
});
