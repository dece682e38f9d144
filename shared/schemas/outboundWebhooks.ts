import * as z from '#shared/zod';
import { withMeta } from '#shared/zod';
import { defineEndpoint } from '#shared/schemas/endpoint';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '#shared/domain/webhooks/eventTypes';
import { noContentSpec } from './noContent';
import { pageOf, pageQuery, timestamp } from './common';
import { jobRecord } from './jobs';
import { growthRun } from './growth';
import { community } from './moderation';

/** The outbound event types, each with the object its `data` carries (as the object's GET returns it). */
export const creditsLow = withMeta(z.object({ available: z.int(), threshold: z.int() }), {
  id: 'CreditsLow',
  description: 'The balance after the spend that took it below the threshold',
});

export const WEBHOOK_EVENT_DATA = {
  'job.completed': jobRecord,
  'job.failed': jobRecord,
  'job.cancelled': jobRecord,
  'growth_run.completed': growthRun,
  'growth_run.failed': growthRun,
  'community.activated': community,
  'community.renewed': community,
  'community.suspended': community,
  'community.expired': community,
  'credits.low': creditsLow,
} as const satisfies Record<WebhookEventType, z.ZodMiniType>;

export { WEBHOOK_EVENT_TYPES, type WebhookEventType };
export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES);

/** The body POSTed to an endpoint for one event type. */
export const webhookEventBody = (type: WebhookEventType) =>
  z.object({ id: z.uuid(), type: z.literal(type), created_at: timestamp, data: WEBHOOK_EVENT_DATA[type] });

const endpointFields = {
  id: z.uuid(),
  url: z.string(),
  event_types: z.array(webhookEventType),
  description: z.nullable(z.string()),
  status: z.enum(['enabled', 'disabled']),
  /** Why a disabled endpoint was disabled (5 days of failed deliveries); null while enabled. */
  disabled_reason: z.nullable(z.string()),
  created_at: timestamp,
};
export const webhookEndpoint = withMeta(z.object(endpointFields), { id: 'WebhookEndpoint' });
export const webhookEndpointWithSecret = withMeta(
  z.object({ ...endpointFields, secret: z.string().check(z.regex(/^whsec_[A-Za-z0-9+/=]+$/)) }),
  { id: 'WebhookEndpointWithSecret', description: 'The signing secret is shown only in this response' },
);

export const webhookDelivery = withMeta(
  z.object({
    id: z.uuid(),
    event_id: z.uuid(),
    event_type: webhookEventType,
    endpoint_id: z.uuid(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.int(),
    last_status_code: z.nullable(z.int()),
    /** The last failed attempt's reason (an HTTP status, a timeout, a refused address); null when none failed yet. */
    last_error: z.nullable(z.string()),
    next_attempt_at: z.nullable(timestamp),
    created_at: timestamp,
  }),
  { id: 'WebhookDelivery' },
);

const endpointParams = z.strictObject({ endpoint_id: z.uuid() });
const tag = 'Outbound webhooks';
const base = '/api/v1/webhooks';

export const outboundWebhookEndpoints = {
  createWebhookEndpoint: defineEndpoint({
    operationId: 'createWebhookEndpoint',
    method: 'POST',
    path: `${base}/endpoints`,
    tag,
    auth: 'api_key',
    idempotent: true,
    sealsReplay: true,
    successStatus: 201,
    errors: [422],
    summary: 'Register an endpoint that receives signed events',
    description:
      'Events are POSTed as `{id, type, created_at, data}` signed per the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature`). ' +
      'The `secret` is shown only here and when rotated. Deployed, the URL must be https and resolve to public addresses only (checked again before every delivery); ' +
      'the local server also accepts http://127.0.0.1 and http://localhost. `event_types` omitted: every type. At most 20 endpoints per account (422 invalid_state).',
    body: z.strictObject({
      url: withMeta(z.string().check(z.minLength(1), z.maxLength(2048)), {
        format: 'uri',
        description:
          'An absolute URL. Deployed: https only, to a host that resolves to public addresses only (checked again before every delivery); the local server also accepts http://127.0.0.1 and http://localhost. Anything else is a 400 validation_error.',
      }),
      event_types: z.optional(z.array(webhookEventType).check(z.minLength(1))),
      description: z.optional(z.string().check(z.trim(), z.maxLength(500))),
    }),
    response: webhookEndpointWithSecret,
  }),
  listWebhookEndpoints: defineEndpoint({
    operationId: 'listWebhookEndpoints',
    method: 'GET',
    path: `${base}/endpoints`,
    summary: 'Your webhook endpoints, newest first (no secrets)',
    tag,
    auth: 'api_key',
    query: z.strictObject(pageQuery),
    response: pageOf(webhookEndpoint),
  }),
  getWebhookEndpoint: defineEndpoint({
    operationId: 'getWebhookEndpoint',
    method: 'GET',
    path: `${base}/endpoints/{endpoint_id}`,
    summary: 'One webhook endpoint (no secret)',
    tag,
    auth: 'api_key',
    params: endpointParams,
    response: webhookEndpoint,
  }),
  deleteWebhookEndpoint: defineEndpoint({
    operationId: 'deleteWebhookEndpoint',
    method: 'DELETE',
    path: `${base}/endpoints/{endpoint_id}`,
    summary: 'Delete an endpoint; its pending deliveries are not sent',
    tag,
    auth: 'api_key',
    params: endpointParams,
    ...noContentSpec,
  }),
  rotateWebhookSecret: defineEndpoint({
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: `${base}/endpoints/{endpoint_id}/rotate-secret`,
    tag,
    auth: 'api_key',
    errors: [409],
    description:
      'Of rotations of one endpoint sent at the same time, one answers 200 with the secret now in use and the others 409 concurrent_update (nothing changed for them): every secret shown is one that signs.',
    summary: 'Replace the signing secret (the new one is shown once); the old one stops signing at once',
    params: endpointParams,
    response: webhookEndpointWithSecret,
  }),
  listWebhookDeliveries: defineEndpoint({
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: `${base}/deliveries`,
    summary: 'The delivery log, newest first (kept 30 days)',
    tag,
    auth: 'api_key',
    description:
      'Paged with a cursor, not an offset: the log is read by index for each filter, so a page costs the same however long the log is. ' +
      '`limit` and `sort_order` work as on every list; the answer carries `next_cursor`, to send as `cursor` (with the same filters and order) for the next page, ' +
      'or null on the last page. There is no `total`: counting the log would read all of it.',
    query: z.strictObject({
      limit: pageQuery.limit,
      sort_order: pageQuery.sort_order,
      cursor: z.optional(
        withMeta(z.string().check(z.minLength(1), z.maxLength(200)), {
          description: 'The `next_cursor` of the previous page',
        }),
      ),
      endpoint_id: z.optional(z.uuid()),
      status: z.optional(z.enum(['pending', 'succeeded', 'failed'])),
    }),
    response: withMeta(
      z.object({
        items: z.array(webhookDelivery),
        limit: z.int(),
        next_cursor: withMeta(z.nullable(z.string()), {
          description: 'Send as `cursor` for the next page; null on the last page',
        }),
      }),
      { id: 'WebhookDeliveryPage' },
    ),
  }),
  retryWebhookDelivery: defineEndpoint({
    operationId: 'retryWebhookDelivery',
    method: 'POST',
    path: `${base}/deliveries/{delivery_id}/retry`,
    tag,
    auth: 'api_key',
    successStatus: 202,
    errors: [422],
    summary: 'Send a delivery again now, with the same webhook-id (422 invalid_state when its endpoint is disabled)',
    params: z.strictObject({ delivery_id: z.uuid() }),
    response: webhookDelivery,
  }),
};
