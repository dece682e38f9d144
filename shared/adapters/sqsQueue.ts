import type { SQSClient } from '@aws-sdk/client-sqs';
import { requireEnv } from '#shared/config/env';
import { setDefaultPorts } from './ports';
import type { QueueMessage, QueuePort } from './queue';
import { traced } from '#shared/observability/tracer';

/**
 * SQS in batches of ten (the API's maximum). The SDK client is imported on the first send, not when
 * the function loads: a cold start that never enqueues does not pay for evaluating it.
 */
export class SqsQueue implements QueuePort {
  private sdk?: Promise<{ client: SQSClient; module: typeof import('./sdk/sqs') }>;
  constructor(private readonly queueUrl: string) {}

  private load() {
    return (this.sdk ??= import('./sdk/sqs').then((module) => ({ client: traced(new module.SQSClient({})), module })));
  }

  async send(messages: QueueMessage[]): Promise<void> {
    if (!messages.length) return;
    const { client, module } = await this.load();
    for (let i = 0; i < messages.length; i += 10) {
      const batch = messages.slice(i, i + 10);
      const out = await client.send(
        new module.SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((m, j) => ({ Id: String(j), MessageBody: m.body, DelaySeconds: m.delaySeconds })),
        }),
      );
      if (out.Failed?.length) throw new Error(`SQS refused ${out.Failed.length} messages`);
    }
  }
}

/**
 * Registers SQS as the queue port. Only the functions whose catalogue entry (infra/functionCatalog.ts)
 * has `queue` call this, so the other bundles carry no SQS client at all.
 */
export function useSqsQueue(): void {
  setDefaultPorts({ queue: () => new SqsQueue(requireEnv('PIPELINE_QUEUE_URL')) });
}

/**
 * Registers SQS as the outbound-webhook queue, for the functions whose catalogue entry has
 * `webhookQueue` (they write webhook events and ask for their fan-out).
 */
export function useWebhookQueue(): void {
  setDefaultPorts({ webhookQueue: () => new SqsQueue(requireEnv('WEBHOOK_QUEUE_URL')) });
}
