import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { requireEnv } from '../config/env';
import { SystemDns } from './dns';
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

export class EventBridgeEvents implements EventsPort {
  private readonly client = new EventBridgeClient({});
  constructor(private readonly busName: string) {}
  async publish(events: DomainEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += 10) {
      await this.client.send(
        new PutEventsCommand({
          Entries: events.slice(i, i + 10).map((e) => ({ EventBusName: this.busName, Source: 'outreach-intelligence', DetailType: e.type, Detail: JSON.stringify(e.detail) })),
        }),
      );
    }
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
  });
}
