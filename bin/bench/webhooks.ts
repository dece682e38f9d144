import { required } from './harness';
import { mustGet } from '#shared/maps';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { announce, webhookEvent } from '#shared/domain/webhooks/outbox';
import { findUserIdByEmail } from '#shared/store/usersRepo';
import { writeTogether } from '#shared/store/transactions';
import type { BenchSuite } from './harness';

const EVENTS = 30;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Event-to-delivery latency: from the commit of an event (written to the outbox as every producer
 * writes it) to its signed POST arriving at a local receiver, through the webhook queue, fan-out,
 * address check and signing.
 */
export const webhooksBench: BenchSuite = {
  name: 'Outbound webhooks (event to delivery)',
  async run({ call, print }) {
    const arrivals = new Map<string, number>();
    let notify: (() => void) | undefined;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        arrivals.set(String(req.headers['webhook-id']), performance.now());
        res.writeHead(204).end();
        notify?.();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench`;
      const endpoint = await call('POST', '/webhooks/endpoints', {
        body: { url, event_types: ['credits.low'] },
        expect: 201,
      });
      const userId = required(await findUserIdByEmail('bench-pro@example.com'), 'the pro demo user');
      const latencies: number[] = [];
      for (let i = 0; i < EVENTS; i++) {
        const event = webhookEvent(userId, 'credits.low', { kind: 'credits', id: userId }, new Date().toISOString(), {
          extra: { available: i, threshold: 100 },
        });
        const start = performance.now();
        await writeTogether({ event: event.item });
        await announce([event]);
        while (!arrivals.has(event.eventId)) await new Promise<void>((resolve) => (notify = resolve));
        latencies.push(mustGet(arrivals, event.eventId, 'arrivals') - start);
      }
      latencies.sort((a, b) => a - b);
      print(
        `${'commit to signed delivery'.padEnd(48)} n=${String(EVENTS).padStart(4)}  p50=${percentile(latencies, 50).toFixed(1).padStart(7)} ms  p95=${percentile(latencies, 95).toFixed(1).padStart(7)} ms`,
      );
      await call('DELETE', `/webhooks/endpoints/${endpoint.id}`, { expect: 204 });
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  },
};
