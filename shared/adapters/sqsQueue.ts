import type { SQSClient, SQSClientConfig } from '@aws-sdk/client-sqs';
import { requiredSetting } from '#shared/config/config';
import type { QueueMessage, QueuePort } from './queue';
import { sendResendingRefused } from './resendRefused';

const SEND_ATTEMPTS = 3;

/**
 * SQS in batches of ten (the API's maximum). SendMessageBatch answers 200 while refusing some
 * entries: those (and only those, so the others are not delivered twice) are sent again unless SQS
 * says the entry itself is at fault, and what is still refused raises an error. The SDK client is
 * imported on the first send, not when the function loads: a cold start that never enqueues does not
 * pay for evaluating it.
 */
export class SqsQueue implements QueuePort {
  private sdk?: Promise<{ client: SQSClient; module: typeof import('./sdk/sqs') }>;
  constructor(
    private readonly queueUrl: string,
    private readonly config: SQSClientConfig = {},
    private readonly retryDelayMs = 200,
  ) {}

  private load() {
    this.sdk ??= import('./sdk/sqs').then((module) => ({ client: new module.SQSClient(this.config), module }));
    return this.sdk;
  }

  async send(messages: QueueMessage[]): Promise<void> {
    if (!messages.length) return;
    const { client, module } = await this.load();
    for (let i = 0; i < messages.length; i += 10) {
      const entries = messages.slice(i, i + 10).map((m) => ({ MessageBody: m.body, DelaySeconds: m.delaySeconds }));
      await sendResendingRefused(
        entries,
        async (pending) => {
          const out = await client.send(
            new module.SendMessageBatchCommand({
              QueueUrl: this.queueUrl,
              Entries: pending.map((entry, j) => ({ Id: String(j), ...entry })),
            }),
          );
          // Failed entries are named by the Id given above: their position in `pending`.
          return (out.Failed ?? []).map((f) => ({
            index: Number(f.Id),
            error: `${f.Code ?? 'unknown'}: ${f.Message ?? ''}`.trim(),
            retryable: !f.SenderFault,
          }));
        },
        { attempts: SEND_ATTEMPTS, delayMs: this.retryDelayMs, noun: 'messages', service: 'SQS' },
      );
    }
  }
}

/** SQS as the pipeline queue, for the functions wired to `queue` (the others' bundles carry no SQS client). */
export const sqsPipelineQueue = (): QueuePort => new SqsQueue(requiredSetting('PIPELINE_QUEUE_URL'));

/** SQS as the outbound-webhook queue, for the functions wired to `webhookQueue`. */
export const sqsWebhookQueue = (): QueuePort => new SqsQueue(requiredSetting('WEBHOOK_QUEUE_URL'));
