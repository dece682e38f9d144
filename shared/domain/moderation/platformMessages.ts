/** The queue messages of platform moderation: deliver one planned delivery, write a guild's AutoMod rules, or poll. */
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

/**
 * The platform failed in a way worth another try (its own 5xx, the network): the queue's redelivery
 * makes it, a few times (the runner counts them). A caller running a delivery itself hands it to the queue.
 */
export class PlatformUnavailable extends Error {
  /** When the caller hands the delivery to the queue itself: soon, but not at once. */
  static readonly retrySeconds = 5;
}
