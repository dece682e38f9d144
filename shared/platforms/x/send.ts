/**
 * One planned X call sent as the community's own account. X counts rate limits per user and
 * endpoint: a 429 is remembered on the account until its `x-rate-limit-reset`, so the community's
 * other calls to that endpoint wait out the window without spending a request, and every one comes
 * back with the seconds left for the delivery runner to postpone by.
 */
import { now } from '#shared/adapters/ports';
import { XApi, type XMethod } from './api';
import type { CallOutcome } from '#shared/platforms/result';
import { rememberXRateLimit, removeBannedXAuthor } from './xRepo';
import { X_ME } from './actions';
import { asXAccount, type XSession } from './tokens';

const METHODS: ReadonlySet<string> = new Set<XMethod>(['GET', 'POST', 'PUT', 'DELETE']);

/** The endpoint a route belongs to for X's limits: ids replaced, so every hide shares one window. */
export const xEndpointOf = (method: string, route: string): string =>
  `${method} ${route.replace(/\/\d{1,20}(?=\/|$)/g, '/:id').replace(X_ME, ':id')}`;

export async function sendXCall(
  call: { method: string; route?: string; body?: Record<string, unknown> },
  communityId: string,
  credentials: { apiBase: string },
): Promise<CallOutcome> {
  if (!METHODS.has(call.method) || !call.route)
    return { ok: false, status: 400, error: `Not an X call: ${call.method} ${call.route ?? ''}` };
  const route = call.route;
  const outcome = await runLimited(communityId, xEndpointOf(call.method, route), (session) =>
    new XApi(credentials.apiBase).request(session.accessToken, {
      method: call.method as XMethod,
      route: route.replaceAll(X_ME, session.accountId),
      body: call.body,
    }),
  );
  // Unmuting an author (an undo) also ends their ban: their later replies are no longer hidden.
  const unmuted = call.method === 'DELETE' ? UNMUTE_ROUTE.exec(route)?.[1] : undefined;
  if (outcome.ok && unmuted) await removeBannedXAuthor(communityId, unmuted);
  return outcome;
}

const UNMUTE_ROUTE = /^\/2\/users\/[^/]+\/muting\/(\d{1,20})$/;

/** Runs the call unless the account's window for the endpoint is still closed; remembers a new 429. */
export async function runLimited(
  communityId: string,
  endpoint: string,
  call: (session: XSession) => Promise<CallOutcome>,
): Promise<CallOutcome> {
  let waited = false;
  const outcome = await asXAccount(communityId, async (session) => {
    const waitMs = (session.rateLimits[endpoint] ?? 0) - now().getTime();
    if (waitMs <= 0) return call(session);
    waited = true;
    return {
      ok: false,
      status: 429,
      error: `${endpoint}: waiting for X's rate-limit window to reset`,
      retryAfterSeconds: Math.ceil(waitMs / 1000),
    };
  });
  if (!waited && !outcome.ok && outcome.status === 429 && outcome.retryAfterSeconds !== undefined) {
    await rememberXRateLimit(communityId, endpoint, now().getTime() + outcome.retryAfterSeconds * 1000);
  }
  return outcome;
}
