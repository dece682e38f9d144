import { webhookEvent, type OutboxEvent } from './outbox';

/** 10% of the pro plan's monthly allowance: low enough to matter, early enough to top up before a 402. */
export const CREDITS_LOW_THRESHOLD = 1000;

/**
 * `credits.low` fires once per crossing: when a money move takes the available balance from at or
 * above the threshold to below it (not on every spend while it stays low).
 */
export function creditsLowEvent(userId: string, before: number, after: number, at: Date): OutboxEvent | undefined {
  if (!(before >= CREDITS_LOW_THRESHOLD && after < CREDITS_LOW_THRESHOLD)) return undefined;
  return webhookEvent(userId, 'credits.low', { kind: 'credits', id: userId }, at.toISOString(), {
    extra: { available: after, threshold: CREDITS_LOW_THRESHOLD },
  });
}
