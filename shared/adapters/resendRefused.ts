/** One entry of a batch the service answered 200 for but did not take. */
export interface Refusal {
  /** Position of the entry in the batch that was sent. */
  index: number;
  /** The service's code and message, for the error raised if it is still refused at the end. */
  error: string;
  /** False when sending it again cannot help (SQS's SenderFault: the entry itself is wrong). */
  retryable: boolean;
}

export interface ResendOptions {
  attempts: number;
  /** Pause before the second attempt; it doubles for each further one. */
  delayMs: number;
  /** What the entries are, for the error message: "events", "messages". */
  noun: string;
  service: string;
}

/**
 * Batch APIs (EventBridge PutEvents, SQS SendMessageBatch) answer 200 while refusing some entries.
 * Sends the refused ones again, and only them, so the entries already taken are not duplicated;
 * raises an error naming what is still refused after the attempts, rather than letting it vanish.
 */
export async function sendResendingRefused<T>(
  entries: T[],
  send: (pending: T[]) => Promise<Refusal[]>,
  { attempts, delayMs, noun, service }: ResendOptions,
): Promise<void> {
  let pending = entries;
  let refusals: Refusal[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) await new Promise((r) => setTimeout(r, delayMs * 2 ** (attempt - 2)));
    refusals = await send(pending);
    if (!refusals.length) return;
    if (refusals.some((r) => !Number.isInteger(r.index) || r.index < 0 || r.index >= pending.length)) {
      throw new Error(`${service} refused ${noun} it did not name`);
    }
    if (refusals.some((r) => !r.retryable)) break;
    pending = refusals.map((r) => pending[r.index]);
  }
  const errors = [...new Set(refusals.map((r) => r.error))].join('; ');
  throw new Error(`${service} refused ${refusals.length} of ${entries.length} ${noun}: ${errors}`);
}
