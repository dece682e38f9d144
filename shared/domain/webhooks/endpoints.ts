/** Customers' webhook endpoints: owner-only (another user's id is a 404), the secret shown on creation and rotation only. */
import { now, ports } from '#shared/adapters/ports';
import { NotFoundError, UnprocessableError, ValidationError } from '#shared/domain/errors';
import { uuidv7 } from '#shared/ids';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '#shared/schemas/outboundWebhooks';
import { deleteEndpoint, getEndpoint, listEndpoints, putEndpoint, replaceSecret, type WebhookEndpointRecord } from '#shared/store/webhookEndpointsRepo';
import { addressPolicyFromEnv, checkDestination } from './addressPolicy';
import { newEndpointSecret } from './signing';
import { endpointView, endpointWithSecret, pageOf, type Page } from './views';

/** Each event fans out to every endpoint of its owner: a bound on both the fan-out and the table. */
export const MAX_ENDPOINTS_PER_USER = 20;

export interface EndpointInput {
  url: string;
  event_types?: WebhookEventType[];
  description?: string;
}

export async function createEndpoint(userId: string, input: EndpointInput) {
  const verdict = await checkDestination(input.url, addressPolicyFromEnv(), ports().hostResolver);
  if (!verdict.ok) throw new ValidationError(`The endpoint URL ${verdict.reason}.`, [{ path: 'body.url', message: `URL ${verdict.reason}` }]);
  if ((await listEndpoints(userId)).length >= MAX_ENDPOINTS_PER_USER) {
    throw new UnprocessableError('invalid_state', `An account can have at most ${MAX_ENDPOINTS_PER_USER} webhook endpoints; delete one first.`);
  }
  const at = now().toISOString();
  // In the published order whatever order (or repetition) the request used.
  const chosen = new Set(input.event_types ?? WEBHOOK_EVENT_TYPES);
  const record: WebhookEndpointRecord = {
    id: uuidv7(),
    userId,
    url: verdict.url.href,
    eventTypes: WEBHOOK_EVENT_TYPES.filter((t) => chosen.has(t)),
    description: input.description || null,
    secret: newEndpointSecret(),
    status: 'enabled',
    disabledReason: null,
    failingSince: null,
    createdAt: at,
    updatedAt: at,
  };
  await putEndpoint(record);
  return endpointWithSecret(record);
}

export async function requireEndpoint(userId: string, endpointId: string, consistent = false): Promise<WebhookEndpointRecord> {
  const endpoint = await getEndpoint(userId, endpointId, consistent);
  if (!endpoint) throw new NotFoundError('Webhook endpoint');
  return endpoint;
}

export const readEndpoint = async (userId: string, endpointId: string) => endpointView(await requireEndpoint(userId, endpointId));

export const pageEndpoints = async (userId: string, q: Page) => pageOf(await listEndpoints(userId), q, endpointView);

export async function removeEndpoint(userId: string, endpointId: string): Promise<void> {
  if (!(await deleteEndpoint(userId, endpointId))) throw new NotFoundError('Webhook endpoint');
}

export async function rotateEndpointSecret(userId: string, endpointId: string) {
  const updated = await replaceSecret(userId, endpointId, newEndpointSecret(), now().toISOString());
  if (!updated) throw new NotFoundError('Webhook endpoint');
  return endpointWithSecret(updated);
}
