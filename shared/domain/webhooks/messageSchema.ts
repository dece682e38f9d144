/**
 * What a webhook queue message may be, checked where one is read (the sender). Apart from messages.ts
 * so that what only sends them (the outbox, the sweeps) carries no validator.
 */
import * as z from '#shared/zod';
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

export const parseWebhookMessage = (body: string): WebhookMessage | undefined => parseJsonAs(message, body);
