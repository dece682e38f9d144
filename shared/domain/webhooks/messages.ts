/** The webhook queue's two messages (their shape: messageSchema.ts): fan an event out into deliveries; make one delivery attempt. */
import type { QueueMessage } from '#shared/adapters/queue';

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
