import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** A message failing this many deliveries is parked in the dead-letter queue. */
export const MAX_RECEIVE_COUNT = 3;
export const WORKER_BATCH_SIZE = 10;

export interface PipelineProps {
  worker: lambda.IFunction;
  workerTimeout: Duration;
}

/**
 * The job pipeline: stage messages on an SQS queue, consumed by the worker in batches that report
 * partial failures (only the failed messages come back), with a dead-letter queue behind it.
 */
export class Pipeline extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: PipelineProps) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS's guidance for Lambda event sources: six times the function timeout, so a message is not
      // handed to a second worker while the first may still be on it.
      visibilityTimeout: Duration.seconds(props.workerTimeout.toSeconds() * 6),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
    props.worker.addEventSource(
      new SqsEventSource(this.queue, { batchSize: WORKER_BATCH_SIZE, reportBatchItemFailures: true }),
    );
  }
}
