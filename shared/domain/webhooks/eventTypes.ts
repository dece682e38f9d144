/**
 * The event types a webhook endpoint can subscribe to. Each one's `data` shape is the object its GET
 * returns, described beside the endpoints' schemas (WEBHOOK_EVENT_DATA in shared/schemas/outboundWebhooks.ts,
 * which must name every type here).
 */
export const WEBHOOK_EVENT_TYPES = [
  'job.completed',
  'job.failed',
  'job.cancelled',
  'growth_run.completed',
  'growth_run.failed',
  'community.activated',
  'community.renewed',
  'community.suspended',
  'community.expired',
  'credits.low',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
