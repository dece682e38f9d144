import type { QueueMessage, QueuePort } from '#shared/adapters/queue';

/**
 * A queue that passes the first `forward` messages on to `queue` and loses every later one, as a
 * stopped process or a lost delivery would: what recovers lost work (watchdog, sweeps) is tested with it.
 */
export function losingQueue(queue: QueuePort, forward: number): QueuePort {
  let left = forward;
  return {
    send: async (messages: QueueMessage[]) => {
      const kept = messages.slice(0, Math.max(0, left));
      left -= kept.length;
      if (kept.length) await queue.send(kept);
    },
  };
}
