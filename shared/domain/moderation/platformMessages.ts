/** The queue messages of platform moderation: deliver one planned delivery, write a guild's AutoMod rules, or poll. */
import * as z from '#shared/schemas/zod';
import { ports } from '#shared/adapters/ports';
import { parseJsonAs } from '#shared/json';

export const deliverMessage = z.object({
  kind: z.literal('moderation.deliver'),
  community_id: z.string(),
  delivery_id: z.string(),
});
export const automodSyncMessage = z.object({
  kind: z.literal('moderation.automod_sync'),
  user_id: z.string(),
  community_id: z.string(),
});
/** One shard of a polled platform's communities, or (without communities) the operator account's own poll. */
export const pollMessage = z.object({
  kind: z.literal('moderation.poll'),
  platform: z.string(),
  communities: z.array(z.object({ user_id: z.string(), community_id: z.string(), external_id: z.string() })),
  operator: z.optional(z.boolean()),
});
export const platformMessage = z.discriminatedUnion('kind', [deliverMessage, automodSyncMessage, pollMessage]);
export type PlatformMessage = z.output<typeof platformMessage>;

/** SQS delays a message by at most 15 minutes. */
const MAX_DELAY_SECONDS = 900;

export async function sendPlatformMessages(messages: PlatformMessage[], delaySeconds = 0): Promise<void> {
  if (!messages.length) return;
  const delay = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
  await ports().queue.send(
    messages.map((m) => ({ body: JSON.stringify(m), ...(delay ? { delaySeconds: delay } : {}) })),
  );
}

export const parsePlatformMessage = (body: string): PlatformMessage | undefined => parseJsonAs(platformMessage, body);

/**
 * The platform asked us to wait: the worker sends the message again with that delay and reports the
 * record done, so the wait is exactly the platform's, not SQS's visibility timeout.
 */
export class RetryLater extends Error {
  constructor(
    readonly seconds: number,
    reason: string,
  ) {
    super(`Retry in ${seconds}s: ${reason}`);
  }
}
