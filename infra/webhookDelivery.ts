import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** A webhook message that crashes its consumer this often is parked (receiver failures never count: they reschedule). */
export const WEBHOOK_MAX_RECEIVE_COUNT = 5;
export const WEBHOOK_BATCH_SIZE = 10;

export interface WebhookDeliveryProps {
  sender: lambda.IFunction;
  senderTimeout: Duration;
}

/**
 * The outbound webhook queue, apart from the job pipeline: its messages wait up to 15 minutes at a
 * time (the retry schedule spans hours), and a receiver's trouble must not touch jobs. The dead-letter
 * queue keeps what the sender could not handle for inspection; the outbox sweep re-queues any delivery
 * still pending, so nothing parked there is lost.
 */
export class WebhookDelivery extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Six times the consumer's timeout (AWS's guidance for Lambda event sources).
      visibilityTimeout: Duration.seconds(props.senderTimeout.toSeconds() * 6),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: WEBHOOK_MAX_RECEIVE_COUNT },
    });
    props.sender.addEventSource(
      new SqsEventSource(this.queue, { batchSize: WEBHOOK_BATCH_SIZE, reportBatchItemFailures: true }),
    );
  }
}
