import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { useAwsPorts } from '../../shared/adapters/aws';
import { failJobFromDeadLetter, handlePipelineMessage } from '../../shared/domain/jobs/pipeline';

useAwsPorts();

const processor = new BatchProcessor(EventType.SQS);

/** Pipeline stage worker: records run in parallel; only the failed ones are reported, so SQS redelivers just those. */
export const handler = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
  processPartialResponse(event, async (record: SQSRecord) => handlePipelineMessage(record.body), processor, { context, throwOnFullBatchFailure: false });

/** Consumer of the dead-letter queue: the job of a message that kept failing is failed with a clear error_message. */
export const deadLetterHandler = async (event: SQSEvent): Promise<void> => {
  for (const record of event.Records) await failJobFromDeadLetter(record.body);
};
