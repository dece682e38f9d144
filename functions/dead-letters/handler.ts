import type { Context, SQSEvent } from 'aws-lambda';
import { logger } from '#shared/observability/logger';
import { withPorts } from '#shared/adapters/aws';
import { failJobFromDeadLetter } from '#shared/domain/jobs/pipeline';
import { recordMetric } from '#shared/observability/metrics';

/**
 * The dead-letter queue's consumer (the local queue's onDeadLetter does the same): the job of a
 * message that kept failing fails. An entry of its own, so its bundle carries none of the stages'
 * or the platforms' code.
 */
export const handler = withPorts('dead-letters', {}, async (event: SQSEvent, context?: Context): Promise<void> => {
  if (context) logger.addContext(context);
  recordMetric('DeadLetteredMessages', event.Records.length, {});
  for (const record of event.Records) await failJobFromDeadLetter(record.body);
});
