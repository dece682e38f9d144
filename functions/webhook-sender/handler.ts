import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { withPorts } from '#shared/adapters/aws';
import { tokenKeyEncryption } from '#shared/adapters/kmsEncryption';
import { systemResolver } from '#shared/adapters/systemPorts';
import { sqsWebhookQueue } from '#shared/adapters/sqsQueue';
import { eventBridgeEvents } from '#shared/adapters/eventBridgeEvents';
import { handleWebhookMessage } from '#shared/domain/webhooks/worker';
import { logger } from '#shared/observability/logger';

/**
 * The webhook queue's consumer: fans events out into deliveries (publishing a bus event on the event
 * bus) and makes delivery attempts. Records run in parallel; only failed ones are reported, so SQS
 * redelivers just those. A receiver's failure is not a record failure: it is recorded and rescheduled
 * on the published retry schedule.
 */
export const handler = withPorts(
  'webhook-sender',
  {
    webhookQueue: sqsWebhookQueue,
    events: eventBridgeEvents,
    hostResolver: systemResolver,
    encryption: tokenKeyEncryption,
  },
  async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    if (context) logger.addContext(context);
    return processPartialResponse(
      event,
      async (record: SQSRecord) => handleWebhookMessage(record.body),
      new BatchProcessor(EventType.SQS),
      { context, throwOnFullBatchFailure: false },
    );
  },
);
