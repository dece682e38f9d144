/**
 * What one API request did to its caller's credits, for the X-Credits-Charged and X-Credits-Remaining
 * headers. The money functions report each move they commit; the API chain runs every handler inside
 * a meter (AsyncLocalStorage), so no handler has to thread the numbers through. Work outside a request
 * (the pipeline worker, the renewal sweep) runs with no meter and reports to nobody.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface Meter {
  /** Credits taken from the available balance (reservations included), less what was given back. */
  charged: number;
  remaining: number | null;
  moved: boolean;
}

const meters = new AsyncLocalStorage<{ userId: string; meter: Meter }>();

export async function meterCredits<T>(
  userId: string | undefined,
  work: () => Promise<T>,
): Promise<{ result: T; headers: Record<string, string> }> {
  if (!userId) return { result: await work(), headers: {} };
  const meter: Meter = { charged: 0, remaining: null, moved: false };
  const result = await meters.run({ userId, meter }, work);
  return {
    result,
    headers: meter.moved
      ? { 'x-credits-charged': String(meter.charged), 'x-credits-remaining': String(meter.remaining) }
      : {},
  };
}

/** A committed move of `spent` credits (negative: given back) leaving `balance` available. */
export function recordCreditMove(userId: string, spent: number, balance: number): void {
  const scope = meters.getStore();
  if (!scope || scope.userId !== userId) return;
  scope.meter.charged += spent;
  scope.meter.remaining = balance;
  scope.meter.moved = true;
}
