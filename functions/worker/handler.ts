import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { useAwsPorts } from '../../shared/adapters/aws';

useAwsPorts();

// Placeholder until the enrichment-jobs issue lands: every message is reported failed so nothing is lost.
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => ({
  batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })),
});
