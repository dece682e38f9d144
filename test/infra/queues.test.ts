import * as sqs from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { QueueWithDeadLetters } from '#infra/queueWithDeadLetters';
import { synthesize } from './synth';

describe('the queues', () => {
  const { stack, resources } = synthesize({ bundle: false });

  it('are each a queue with its dead-letter queue, built by one construct', () => {
    const pairs = stack.node.findAll().filter((c): c is QueueWithDeadLetters => c instanceof QueueWithDeadLetters);
    expect(pairs.map((p) => p.node.id).sort()).toEqual(['OutboundWebhookDelivery', 'Pipeline']);
    const queues = stack.node.findAll().filter((c) => c instanceof sqs.Queue);
    // Every queue of the stack is one of theirs: no queue without a place for the messages it cannot deliver.
    expect(queues.filter((q) => !pairs.some((p) => q === p.queue || q === p.deadLetterQueue))).toEqual([]);
    expect(Object.keys(resources('AWS::SQS::Queue'))).toHaveLength(2 * pairs.length);
  });

  it('keep the logical ids the deployed queues have (a new id would replace a queue and lose its messages)', () => {
    expect(Object.keys(resources('AWS::SQS::Queue')).sort()).toEqual([
      expect.stringMatching(/^OutboundWebhookDeliveryDeadLetterQueue[0-9A-F]{8}$/),
      expect.stringMatching(/^OutboundWebhookDeliveryQueue[0-9A-F]{8}$/),
      expect.stringMatching(/^PipelineDeadLetterQueue[0-9A-F]{8}$/),
      expect.stringMatching(/^PipelineQueue[0-9A-F]{8}$/),
    ]);
  });
});
