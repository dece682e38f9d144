import type { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { QueueWithDeadLetters } from './queueWithDeadLetters';

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

/**
 * The job pipeline: stage messages on an SQS queue, consumed by the worker, with a dead-letter queue
 * behind it whose messages fail their jobs.
 */
export class Pipeline extends QueueWithDeadLetters {
  constructor(scope: Construct, id: string, props: PipelineProps) {
    super(scope, id, {
      consumer: { fn: props.worker, timeout: props.workerTimeout, batchSize: WORKER_BATCH_SIZE },
      maxReceiveCount: MAX_RECEIVE_COUNT,
      deadLetterConsumer: { fn: props.deadLetterConsumer, timeout: props.deadLetterConsumerTimeout },
    });
  }
}
