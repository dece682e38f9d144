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
});
