import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/**
 * A message failing this many deliveries is parked in the dead-letter queue. The worker fails the
 * job itself when the last delivery throws, so this must equal MAX_DELIVERIES in
 * shared/domain/jobs/pipeline.ts.
 */
export const MAX_RECEIVE_COUNT = 3;
export const WORKER_BATCH_SIZE = 10;

export interface PipelineProps {
  worker: lambda.IFunction;
  workerTimeout: Duration;
  /** Fails the job of each message that reached the dead-letter queue. */
  deadLetterConsumer: lambda.IFunction;
  deadLetterConsumerTimeout: Duration;
}

/** AWS's guidance for Lambda event sources: six times the function timeout, so a message is not
 * handed to a second consumer while the first may still be on it. */
const visibilityFor = (consumerTimeout: Duration) => Duration.seconds(consumerTimeout.toSeconds() * 6);

/**
 * The job pipeline: stage messages on an SQS queue, consumed by the worker in batches that report
 * partial failures (only the failed messages come back), with a dead-letter queue behind it whose
 * messages fail their jobs.
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
      visibilityTimeout: visibilityFor(props.deadLetterConsumerTimeout),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: visibilityFor(props.workerTimeout),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
    props.worker.addEventSource(
      new SqsEventSource(this.queue, { batchSize: WORKER_BATCH_SIZE, reportBatchItemFailures: true }),
    );
    // One message at a time: the consumer returns no partial batch response, so a message it cannot
    // handle must not take others back with it; it is retried alone until its retention ends.
    props.deadLetterConsumer.addEventSource(new SqsEventSource(this.deadLetterQueue, { batchSize: 1 }));
  }
}
