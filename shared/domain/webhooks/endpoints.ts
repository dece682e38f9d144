/** Customers' webhook endpoints: owner-only (another user's id is a 404), the secret shown on creation and rotation only. */
import { now, ports } from '#shared/adapters/ports';
import { systemClock } from '#shared/adapters/clock';
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '#shared/domain/errors';
import { uuidv7 } from '#shared/ids';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './eventTypes';
import {
  deleteEndpointItem,
  getEndpoint,
  getEndpointCount,
  listEndpoints,
  moveEndpointCountItem,
  putEndpointItem,
  replaceSecret,
  startEndpointCountItem,
  type WebhookEndpointRecord,
} from '#shared/store/webhookEndpointsRepo';
import {
  retryingConflicts,
  TransactionConditionError,
  writeTogether,
  type TransactItem,
} from '#shared/store/transactions';
import { configuredAddressPolicy, checkDestination } from './addressPolicy';
import { newEndpointSecret } from './signing';
import { sealEndpointSecret } from './endpointSecret';
import { endpointView, endpointWithSecret, pageOf, type Page } from './views';

/** Each event fans out to every endpoint of its owner: a bound on both the fan-out and the table. */
export const MAX_ENDPOINTS_PER_USER = 20;

export interface EndpointInput {
  url: string;
  event_types?: WebhookEventType[];
  description?: string;
}

export async function createEndpoint(userId: string, input: EndpointInput) {
  const verdict = await checkDestination(input.url, configuredAddressPolicy(), ports().hostResolver);
  if (!verdict.ok)
    throw new ValidationError(`The endpoint URL ${verdict.reason}.`, [
      { path: 'body.url', message: `URL ${verdict.reason}` },
    ]);
  const at = now().toISOString();
  // In the published order whatever order (or repetition) the request used.
  const chosen = new Set(input.event_types ?? WEBHOOK_EVENT_TYPES);
  const id = uuidv7();
  const secret = newEndpointSecret();
  const record: WebhookEndpointRecord = {
    id,
    userId,
    url: verdict.url.href,
    eventTypes: WEBHOOK_EVENT_TYPES.filter((t) => chosen.has(t)),
    description: input.description || null,
    sealedSecret: await sealEndpointSecret(userId, id, secret),
    status: 'enabled',
    disabledReason: null,
    failingSince: null,
    createdAt: at,
    updatedAt: at,
  };
  const written = await withEndpointCount(userId, 1, putEndpointItem(record));
  if (written === 'limit')
    throw new UnprocessableError(
      'invalid_state',
      `An account can have at most ${MAX_ENDPOINTS_PER_USER} webhook endpoints; delete one first.`,
    );
  return endpointWithSecret(record, secret);
}

export async function requireEndpoint(
  userId: string,
  endpointId: string,
  consistent = false,
): Promise<WebhookEndpointRecord> {
  const endpoint = await getEndpoint(userId, endpointId, consistent);
  if (!endpoint) throw new NotFoundError('Webhook endpoint');
  return endpoint;
}

export const readEndpoint = async (userId: string, endpointId: string) =>
  endpointView(await requireEndpoint(userId, endpointId));

export const pageEndpoints = async (userId: string, q: Page) => pageOf(await listEndpoints(userId), q, endpointView);

export async function removeEndpoint(userId: string, endpointId: string): Promise<void> {
  if ((await withEndpointCount(userId, -1, deleteEndpointItem(userId, endpointId))) === 'gone')
    throw new NotFoundError('Webhook endpoint');
}

/**
 * Writes an endpoint's creation or deletion with the account's endpoint count, in one transaction, so
 * parallel creates cannot pass the limit. An account without a count (endpoints made before it) starts
 * one from a consistent listing; two requests starting it at once race on its creation, and the loser
 * goes again with the count the winner wrote.
 */
async function withEndpointCount(
  userId: string,
  delta: 1 | -1,
  endpoint: TransactItem,
): Promise<'written' | 'limit' | 'gone'> {
  for (let attempt = 1; ; attempt++) {
    const kept = (await getEndpointCount(userId)) !== undefined;
    // Without a count: the endpoints there are now, which the count starts from.
    const listed = kept ? 0 : (await listEndpoints(userId, true)).length;
    if (!kept && delta > 0 && listed >= MAX_ENDPOINTS_PER_USER) return 'limit';
    const countItem = kept
      ? moveEndpointCountItem(userId, delta, MAX_ENDPOINTS_PER_USER)
      : startEndpointCountItem(userId, listed + delta);
    try {
      // Parallel requests of one account meet on the count item: a cancelled (not refused) transaction goes again.
      await retryingConflicts(() => writeTogether({ endpoint, count: countItem }));
      return 'written';
    } catch (err) {
      if (!(err instanceof TransactionConditionError)) throw err;
      if (err.failed.has('endpoint')) return 'gone';
      // A kept count refused the create: it is at the limit.
      if (kept && delta > 0) return 'limit';
      // The count was started by another request meanwhile: read it again.
      if (attempt >= 3) throw err;
    }
  }
}

/**
 * A new secret, written only over the one read just before and only if no other rotation wrote one
 * since this one began: of rotations that overlap, one answers with the secret kept and the others
 * 409, so every secret shown is the one that signs.
 */
export async function rotateEndpointSecret(userId: string, endpointId: string, requestedAt: Date = systemClock.now()) {
  // A rotation asked for before the secret last changed overlapped that change: it loses. Both
  // instants are wall-clock ones (the request's arrival is), whatever the clock port stands at.
  const current = await requireEndpoint(userId, endpointId, true);
  const secret = newEndpointSecret();
  const updated = await replaceSecret(
    userId,
    endpointId,
    current,
    requestedAt.toISOString(),
    await sealEndpointSecret(userId, endpointId, secret),
    systemClock.now().toISOString(),
  );
  if (updated) return endpointWithSecret(updated, secret);
  // Deleted meanwhile, or another rotation wrote its secret first.
  await requireEndpoint(userId, endpointId, true);
  throw new ConflictError(
    'concurrent_update',
    "Another rotation of this endpoint's secret finished first; the secret it showed is the one in use. Rotate again for a new one.",
  );
}
