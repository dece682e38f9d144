import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { uuidv7 } from '#shared/ids';
import type { QueueMessage, QueuePort } from '#shared/adapters/queue';

// A handler of a queue without partial batch responses resolves to nothing (aws-lambda's SQSHandler).
export type BatchHandler = (event: SQSEvent) => Promise<SQSBatchResponse | undefined> | Promise<void>;

/** SQS bills each 64 KiB chunk of a request's payload as one request. */
const SQS_CHUNK_BYTES = 64 * 1024;
const billedRequests = (bodies: string[]) =>
  Math.max(1, Math.ceil(bodies.reduce((sum, b) => sum + Buffer.byteLength(b), 0) / SQS_CHUNK_BYTES));

/**
 * The SQS requests the deployed queue would bill for the same traffic: a SendMessageBatch per ten
 * messages (as the SQS adapter sends them), a ReceiveMessage per batch handed to the consumer and a
 * DeleteMessageBatch for each batch with messages that succeeded (Lambda's event source mapping
 * deletes them). Lambda's empty long-poll receives are a fixed cost of the queue, not of traffic.
 */
export interface SqsRequestCounts {
  send: number;
  receive: number;
  delete: number;
}

interface Pending {
  id: string;
  body: string;
  receiveCount: number;
  visibleAt: number;
}

/**
 * The pipeline queue in-process, with SQS semantics that matter to the worker: batches of up to
 * `batchSize` records, partial batch failures, redelivery after a visibility delay, and a dead-letter
 * list after `maxReceiveCount` receives (the redrive policy of the deployed queue).
 */
export class InProcessQueue implements QueuePort {
  private pending: Pending[] = [];
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  private consumer: BatchHandler | undefined;
  private idleWaiters: (() => void)[] = [];
  private stopped = false;
  readonly deadLetters: { id: string; body: string; receiveCount: number }[] = [];
  sentCount = 0;
  readonly requests: SqsRequestCounts = { send: 0, receive: 0, delete: 0 };
  onDeadLetter: ((event: SQSEvent) => Promise<void>) | undefined;

  constructor(
    private readonly options: { batchSize?: number; maxReceiveCount?: number; visibilityDelayMs?: number } = {},
  ) {}

  setConsumer(consumer: BatchHandler): void {
    this.consumer = consumer;
    this.schedule(0);
  }

  async send(messages: QueueMessage[]): Promise<void> {
    // Like a process that has exited: what it would have queued is gone (the job watchdog re-drives it).
    if (this.stopped) return;
    const at = Date.now();
    for (const m of messages) {
      this.pending.push({ id: uuidv7(), body: m.body, receiveCount: 0, visibleAt: at + (m.delaySeconds ?? 0) * 1000 });
    }
    this.sentCount += messages.length;
    for (let i = 0; i < messages.length; i += 10)
      this.requests.send += billedRequests(messages.slice(i, i + 10).map((m) => m.body));
    this.schedule(0);
  }

  /** Resolves when nothing is queued or being processed (tests and the benchmark wait on this). */
  async drained(): Promise<void> {
    if (this.pending.length === 0 && this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Resolves when nothing is being processed and nothing queued is visible yet: messages delayed into
   * the future (a webhook retry hours away) do not hold it, unlike `drained`.
   */
  async settled(): Promise<void> {
    while (this.inFlight > 0 || this.pending.some((m) => m.visibleAt <= Date.now()))
      await new Promise((r) => setTimeout(r, 20));
  }

  /** Pauses delivery; queued messages wait for the next consumer (tests hold a job still this way). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.consumer = undefined;
  }

  /**
   * Ends the queue as a process ends: queued messages are dropped, and so is anything sent later.
   * Resolves when the batches already handed to the consumer have returned.
   */
  async shutdown(): Promise<void> {
    this.stopped = true;
    this.stop();
    this.pending = [];
    while (this.inFlight > 0) await new Promise((r) => setTimeout(r, 10));
  }

  private schedule(delayMs: number): void {
    if (!this.consumer) return;
    // A timer set for a long-delayed message must not hold back one that is visible sooner.
    if (this.timer && this.timerAt <= Date.now() + delayMs) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.deliver();
    }, delayMs);
  }

  private async deliver(): Promise<void> {
    const consumer = this.consumer;
    if (!consumer) return;
    const at = Date.now();
    const batch: Pending[] = [];
    this.pending = this.pending.filter((m) => {
      if (batch.length < (this.options.batchSize ?? 10) && m.visibleAt <= at) {
        batch.push(m);
        return false;
      }
      return true;
    });
    if (batch.length > 0) {
      this.inFlight += batch.length;
      for (const m of batch) m.receiveCount += 1;
      this.requests.receive += billedRequests(batch.map((m) => m.body));
      let failed: Set<string>;
      try {
        const response = await consumer({ Records: batch.map(toRecord) });
        failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      } catch {
        failed = new Set(batch.map((m) => m.id));
      }
      if (batch.some((b) => !failed.has(b.id))) this.requests.delete += 1;
      for (const m of batch.filter((b) => failed.has(b.id))) {
        if (m.receiveCount >= (this.options.maxReceiveCount ?? 3)) {
          this.deadLetters.push({ id: m.id, body: m.body, receiveCount: m.receiveCount });
          // A failing dead-letter consumer loses nothing (the message stays in deadLetters) but must be seen.
          await this.onDeadLetter?.({ Records: [toRecord(m)] }).catch((error: unknown) =>
            process.stderr.write(
              `dead-letter consumer failed: ${error instanceof Error ? error.message : String(error)}\n`,
            ),
          );
        } else {
          this.pending.push({ ...m, visibleAt: Date.now() + (this.options.visibilityDelayMs ?? 50) });
        }
      }
      this.inFlight -= batch.length;
    }
    if (this.pending.length === 0 && this.inFlight === 0) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      return;
    }
    // Batches may be in flight concurrently (like concurrent Lambda invocations); with nothing left
    // to deliver, the last one to finish does the idle check above.
    if (this.pending.length === 0) return;
    const nextVisible = Math.min(...this.pending.map((m) => m.visibleAt));
    this.schedule(Math.max(0, nextVisible - Date.now()));
  }
}

function toRecord(m: Pending): SQSRecord {
  return {
    messageId: m.id,
    receiptHandle: m.id,
    body: m.body,
    attributes: {
      ApproximateReceiveCount: String(m.receiveCount),
      SentTimestamp: String(Date.now()),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:pipeline',
    awsRegion: 'local',
  };
}
