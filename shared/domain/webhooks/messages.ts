import * as z from '#shared/schemas/zod';
import type { QueueMessage } from '#shared/adapters/queue';
import { parseJsonAs } from '#shared/json';

/** The webhook queue's two messages: fan an event out into deliveries; make one delivery attempt. */
const message = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('webhook.dispatch'), user_id: z.string(), event_id: z.string() }),
  // `manual`: the manual retry asked for, not a scheduled attempt.
  z.object({
    kind: z.literal('webhook.deliver'),
    user_id: z.string(),
    delivery_id: z.string(),
    manual: z.optional(z.boolean()),
  }),
]);
export type WebhookMessage = z.output<typeof message>;

/** SQS delays a message 15 minutes at most; a longer wait is a chain of such delays. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

export const dispatchMessage = (userId: string, eventId: string): QueueMessage => ({
  body: JSON.stringify({ kind: 'webhook.dispatch', user_id: userId, event_id: eventId }),
});

export const deliverMessage = (userId: string, deliveryId: string, delayMs = 0, manual = false): QueueMessage => ({
  body: JSON.stringify({
    kind: 'webhook.deliver',
    user_id: userId,
    delivery_id: deliveryId,
    ...(manual ? { manual: true } : {}),
  }),
  delaySeconds: Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil(delayMs / 1000))),
});

export const parseWebhookMessage = (body: string): WebhookMessage | undefined => parseJsonAs(message, body);
