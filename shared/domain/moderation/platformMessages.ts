/**
 * The queue messages of platform moderation: deliver one planned delivery, poll, or a platform's own
 * work (Discord's AutoMod sync). A platform's wait (RetryLater) is in shared/platforms/result.ts, since
 * its own work throws it too.
 */
import { ports } from '#shared/adapters/ports';
import type { PlatformMessage } from './platformMessageSchema';

export type { PlatformMessage };

/** SQS delays a message by at most 15 minutes. */
const MAX_DELAY_SECONDS = 900;

export async function sendPlatformMessages(messages: PlatformMessage[], delaySeconds = 0): Promise<void> {
  if (!messages.length) return;
  const delay = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
  await ports().queue.send(
    messages.map((m) => ({ body: JSON.stringify(m), ...(delay ? { delaySeconds: delay } : {}) })),
  );
}

/**
 * The platform failed in a way worth another try (its own 5xx, the network): the queue's redelivery
 * makes it, a few times (the runner counts them). A caller running a delivery itself hands it to the queue.
 */
export class PlatformUnavailable extends Error {
  /** When the caller hands the delivery to the queue itself: soon, but not at once. */
  static readonly retrySeconds = 5;
}
