/**
 * Moderation on Crisp: how long from a signed plugin hook reaching the endpoint to the REST call it
 * causes reaching Crisp. A small Crisp API answers locally (`{error, reason, data}`), so the figure is
 * the service's own: signature check, engine, planning, queue and the adapter.
 */
import { mustGet } from '#shared/maps';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchSuite } from './harness';
import { reloadConfig } from '#shared/config/config';

const BASE = '/integrations/moderation';
const ENV = {
  CRISP_TOKEN_IDENTIFIER: 'bench-identifier',
  CRISP_TOKEN_KEY: 'bench-key',
  CRISP_HOOK_SECRET: 'bench-hook-secret',
};

async function startCrispApi(onCall: (method: string, path: string) => void) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      onCall(req.method ?? '', req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: false, reason: 'ok', data: {} }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export const crispModerationBench: BenchSuite = {
  name: 'Moderation on Crisp (hook to REST call)',
  async run({ call, baseUrl, print }) {
    const arrivals = new Map<string, number>();
    const api = await startCrispApi((method, path) => {
      if (method === 'DELETE') arrivals.set(path.slice(path.lastIndexOf('/') + 1), performance.now());
    });
    const saved = Object.fromEntries(['CRISP_API_BASE', ...Object.keys(ENV)].map((n) => [n, process.env[n]]));
    Object.assign(process.env, ENV, { CRISP_API_BASE: api.url });
    reloadConfig();
    try {
      const community = await call('POST', `${BASE}/communities`, {
        body: { name: 'Bench Crisp', project_name: 'Bench', type: 'crisp' },
        expect: 201,
      });
      const websiteId = `bench-${Date.now()}`;
      const post = (body: object) => {
        const timestamp = String(Date.now());
        const signature = createHmac('sha256', ENV.CRISP_HOOK_SECRET)
          .update(`[${timestamp};${JSON.stringify(body)}]`)
          .digest('hex');
        return fetch(`${baseUrl}${BASE}/crisp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-crisp-request-timestamp': timestamp,
            'x-crisp-signature': signature,
          },
          body: JSON.stringify(body),
        });
      };
      const message = (session: string, from: string, event: string, fingerprint: number, content: string) => ({
        website_id: websiteId,
        event,
        timestamp: Date.now(),
        data: {
          website_id: websiteId,
          session_id: session,
          type: 'text',
          from,
          origin: 'chat',
          content,
          fingerprint,
          user: { nickname: 'Bench' },
          timestamp: Date.now(),
        },
      });
      await post(
        message('session_operator', 'operator', 'message:received', 1, `/activate ${community.activation_token}`),
      );

      const n = 50;
      const hook: number[] = [];
      const toPlatform: number[] = [];
      for (let i = 0; i < n; i++) {
        const fingerprint = 1000 + i;
        const start = performance.now();
        const res = await post(
          message(`session_${i}`, 'user', 'message:send', fingerprint, 'Connect your wallet to claim the airdrop'),
        );
        hook.push(performance.now() - start);
        if (res.status !== 200) throw new Error(`hook answered ${res.status}`);
        while (!arrivals.has(String(fingerprint))) await new Promise((r) => setTimeout(r, 1));
        toPlatform.push(mustGet(arrivals, String(fingerprint), 'arrivals') - start);
      }
      hook.sort((a, b) => a - b);
      toPlatform.sort((a, b) => a - b);
      const line = (label: string, times: number[]) =>
        print(
          `${label.padEnd(48)} n=${String(n).padStart(4)}  p50=${percentile(times, 50).toFixed(1).padStart(7)} ms  p95=${percentile(times, 95).toFixed(1).padStart(7)} ms`,
        );
      line('POST /crisp (signed spam hook, answered)', hook);
      line('hook received -> message DELETE at Crisp', toPlatform);
    } finally {
      api.close();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      reloadConfig();
    }
  },
};
