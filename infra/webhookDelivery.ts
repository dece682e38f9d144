import type { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { QueueWithDeadLetters } from './queueWithDeadLetters';

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
export class WebhookDelivery extends QueueWithDeadLetters {
  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id, {
      consumer: { fn: props.sender, timeout: props.senderTimeout, batchSize: WEBHOOK_BATCH_SIZE },
      maxReceiveCount: WEBHOOK_MAX_RECEIVE_COUNT,
    });
  }
}
