import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { withPorts } from '#shared/adapters/aws';
import { awsSecrets } from '#shared/adapters/secrets';
import { systemDns } from '#shared/adapters/systemPorts';
import { sqsPipelineQueue, sqsWebhookQueue } from '#shared/adapters/sqsQueue';
import { tokenKeyEncryption } from '#shared/adapters/kmsEncryption';
import { handlePipelineMessage } from '#shared/domain/jobs/pipeline';
import { logger } from '#shared/observability/logger';
import { handlePlatformMessage, parsePlatformMessage } from '#shared/domain/moderation/platformWorker';

/**
 * Pipeline stage worker: records run in parallel; only the failed ones are reported, so SQS
 * redelivers just those. A processor per batch: it holds the batch's state, and the local runtime
 * may run two batches in one process at once.
 */
export const handler = withPorts(
  'worker',
  {
    queue: sqsPipelineQueue,
    webhookQueue: sqsWebhookQueue,
    secrets: awsSecrets,
    dns: systemDns,
    encryption: tokenKeyEncryption,
  },
  async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    if (context) logger.addContext(context);
    return processPartialResponse(
      event,
      async (record: SQSRecord) => {
        // Platform moderation shares the queue: its messages name their own kind.
        const platform = parsePlatformMessage(record.body);
        return platform
          ? handlePlatformMessage(platform)
          : handlePipelineMessage(record.body, {
              receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? 1),
            });
      },
      new BatchProcessor(EventType.SQS),
      { context, throwOnFullBatchFailure: false },
    );
  },
);
