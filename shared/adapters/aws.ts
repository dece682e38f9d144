import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { EventBridgeClient, PutEventsCommand, type EventBridgeClientConfig } from '@aws-sdk/client-eventbridge';
import { requireEnv } from '../config/env';
import { SystemDns } from './dns';
import { SystemResolver } from './hostResolver';
import type { DomainEvent, EventsPort } from './events';
import { setDefaultPorts } from './ports';
import type { QueueMessage, QueuePort } from './queue';

/** SQS in batches of ten (the API's maximum). */
export class SqsQueue implements QueuePort {
  private readonly sqs = new SQSClient({});
  constructor(private readonly queueUrl: string) {}
  async send(messages: QueueMessage[]): Promise<void> {
    for (let i = 0; i < messages.length; i += 10) {
      const batch = messages.slice(i, i + 10);
      const out = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((m, j) => ({ Id: String(j), MessageBody: m.body, DelaySeconds: m.delaySeconds })),
        }),
      );
      if (out.Failed?.length) throw new Error(`SQS refused ${out.Failed.length} messages`);
    }
  }
}

const PUT_EVENTS_ATTEMPTS = 3;

/**
 * EventBridge answers 200 even when it refuses some entries (FailedEntryCount), so refused entries
 * are sent again, and still-refused ones raise an error instead of vanishing.
 */
export class EventBridgeEvents implements EventsPort {
  private readonly client: EventBridgeClient;
  constructor(
    private readonly busName: string,
    config: EventBridgeClientConfig = {},
    private readonly retryDelayMs = 200,
  ) {
    this.client = new EventBridgeClient(config);
  }

  async publish(events: DomainEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += 10) await this.putBatch(events.slice(i, i + 10));
  }

  private async putBatch(batch: DomainEvent[]): Promise<void> {
    let pending = batch.map((e) => ({ EventBusName: this.busName, Source: 'outreach-intelligence', DetailType: e.type, Detail: JSON.stringify(e.detail) }));
    let errors: string[] = [];
    for (let attempt = 1; attempt <= PUT_EVENTS_ATTEMPTS && pending.length; attempt++) {
      if (attempt > 1) await new Promise((r) => setTimeout(r, this.retryDelayMs * 2 ** (attempt - 2)));
      const out = await this.client.send(new PutEventsCommand({ Entries: pending }));
      if (!out.FailedEntryCount) return;
      // Result entries are in request order; a refused one carries an ErrorCode.
      const refused = (out.Entries ?? []).map((r, j) => ({ r, j })).filter(({ r }) => r.ErrorCode);
      if (!refused.length) throw new Error(`EventBridge refused ${out.FailedEntryCount} of ${batch.length} events without naming them`);
      errors = refused.map(({ r }) => `${r.ErrorCode}: ${r.ErrorMessage ?? ''}`.trim());
      pending = refused.map(({ j }) => pending[j]);
    }
    if (pending.length) throw new Error(`EventBridge refused ${pending.length} of ${batch.length} events: ${[...new Set(errors)].join('; ')}`);
  }
}

/**
 * Called at module scope by every Lambda entry point: real AWS ports unless tests or the local server
 * installed others. Payments are registered only by the account function (usePaymentsFromEnv).
 */
export function useAwsPorts(): void {
  setDefaultPorts({
    queue: () => new SqsQueue(requireEnv('PIPELINE_QUEUE_URL')),
    events: () => new EventBridgeEvents(requireEnv('EVENT_BUS_NAME')),
    dns: () => new SystemDns(),
    webhookQueue: () => new SqsQueue(requireEnv('WEBHOOK_QUEUE_URL')),
    hostResolver: () => new SystemResolver(),
  });
}
