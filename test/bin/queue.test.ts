import { describe, expect, it } from 'vitest';
import { InProcessQueue } from '#bin/local/queue';

describe('the in-process queue', () => {
  it('redelivers failed records, dead-letters them after maxReceiveCount, and reports idle', async () => {
    const queue = new InProcessQueue({ batchSize: 2, maxReceiveCount: 3, visibilityDelayMs: 1 });
    const seen: string[] = [];
    const dead: string[] = [];
    queue.onDeadLetter = async (event) => void dead.push(...event.Records.map((r) => r.body));
    queue.setConsumer(async (event) => {
      seen.push(...event.Records.map((r) => r.body));
      return {
        batchItemFailures: event.Records.filter((r) => r.body === 'poison').map((r) => ({
          itemIdentifier: r.messageId,
        })),
      };
    });
    await queue.send([{ body: 'a' }, { body: 'poison' }, { body: 'b' }]);
    await queue.drained();
    expect(seen.filter((b) => b === 'poison')).toHaveLength(3);
    expect(seen.filter((b) => b !== 'poison').sort()).toEqual(['a', 'b']);
    expect(dead).toEqual(['poison']);
    expect(queue.deadLetters[0]).toMatchObject({ body: 'poison', receiveCount: 3 });
    queue.stop();
  });

  it('delivers a message sent while another batch is in flight, and reports idle only when both are done', async () => {
    const queue = new InProcessQueue({ batchSize: 1, visibilityDelayMs: 1 });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const handled: string[] = [];
    queue.setConsumer(async (event) => {
      if (event.Records[0].body === 'first') await gate;
      handled.push(event.Records[0].body);
    });
    await queue.send([{ body: 'first' }]);
    await new Promise((r) => setTimeout(r, 5));
    await queue.send([{ body: 'second' }]);
    await new Promise((r) => setTimeout(r, 20));
    expect(handled).toEqual(['second']);
    let idle = false;
    const drained = queue.drained().then(() => (idle = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(idle).toBe(false);
    release();
    await drained;
    expect(handled).toEqual(['second', 'first']);
    queue.stop();
  });

  it('counts the SQS requests the deployed queue would bill: a send per ten messages, a receive per batch, a delete per batch with a success, 64 KiB chunks each', async () => {
    const queue = new InProcessQueue({ batchSize: 10, maxReceiveCount: 2, visibilityDelayMs: 1 });
    queue.setConsumer(async (event) => ({
      batchItemFailures: event.Records.filter((r) => r.body === 'poison').map((r) => ({ itemIdentifier: r.messageId })),
    }));
    // 12 small messages: two SendMessageBatch calls; then one of 100 KiB, two chunks of 64 KiB.
    await queue.send(Array.from({ length: 11 }, (_, i) => ({ body: `m${i}` })).concat({ body: 'poison' }));
    await queue.drained();
    expect(queue.requests.send).toBe(2);
    // First batch of 10, then the other 2 (one of them poison), then poison again alone: three receives;
    // the last batch has no success, so two deletes; poison's second failure dead-letters it.
    expect(queue.requests.receive).toBe(3);
    expect(queue.requests.delete).toBe(2);
    await queue.send([{ body: 'x'.repeat(100 * 1024) }]);
    await queue.drained();
    expect(queue.requests).toEqual({ send: 4, receive: 5, delete: 3 });
    queue.stop();
  });
});
