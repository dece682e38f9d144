import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** A Lambda function reading a queue, and its timeout (the queue's visibility timeout follows from it). */
export interface QueueConsumer {
  fn: lambda.IFunction;
  timeout: Duration;
}

export interface QueueWithDeadLettersProps {
  /** Reads the queue in batches that report partial failures (only the failed messages come back). */
  consumer: QueueConsumer & { batchSize: number };
  /** A message failing this many deliveries is parked in the dead-letter queue. */
  maxReceiveCount: number;
  /** Reads the dead-letter queue, if anything should happen to a parked message besides waiting to be read. */
  deadLetterConsumer?: QueueConsumer;
}

/** AWS's guidance for Lambda event sources: six times the function timeout, so a message is not
 * handed to a second consumer while the first may still be on it. */
const visibilityFor = (consumerTimeout: Duration) => Duration.seconds(consumerTimeout.toSeconds() * 6);

/**
 * An SQS queue, encrypted and TLS-only, consumed by one function, with a dead-letter queue behind it
 * that keeps what failed every delivery for 14 days. Each queue of the stack is one of these, so none is
 * without a place for its undeliverable messages. The queues' ids (`Queue`, `DeadLetterQueue`) are the
 * deployed ones: a construct's id is its queues' logical id prefix.
 */
export class QueueWithDeadLetters extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: QueueWithDeadLettersProps) {
    super(scope, id);
    const { consumer, deadLetterConsumer } = props;
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      ...(deadLetterConsumer ? { visibilityTimeout: visibilityFor(deadLetterConsumer.timeout) } : {}),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: visibilityFor(consumer.timeout),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount },
    });
    consumer.fn.addEventSource(
      new SqsEventSource(this.queue, { batchSize: consumer.batchSize, reportBatchItemFailures: true }),
    );
    // One message at a time: a dead-letter consumer returns no partial batch response, so a message it
    // cannot handle must not take others back with it; it is retried alone until its retention ends.
    deadLetterConsumer?.fn.addEventSource(new SqsEventSource(this.deadLetterQueue, { batchSize: 1 }));
  }
}
