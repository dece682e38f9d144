import { mustGet } from '#shared/maps';
import { seedCuratedDataset } from '#bin/curated/seed';
import { getSeedMarker } from '#shared/store/curatedReads';
import type { BenchContext, BenchSuite } from './harness';
import { BENCH_DATASET_SCALE, newAccount, percentile, reconcile } from './oneAccount';

const CLIENTS = Number(process.env.BENCH_THROUGHPUT_CLIENTS ?? 20);
const SECONDS = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 60);

type Kind = 'GET /users/me' | 'resolve' | 'quote' | 'execute' | 'create job' | 'job SSE to complete';
const KINDS: Kind[] = ['GET /users/me', 'resolve', 'quote', 'execute', 'create job', 'job SSE to complete'];

/** A status the server answered with, kept apart from the client's own failures (a refused connection). */
class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Throughput on one machine: CLIENTS concurrent clients, each on an account of its own, for SECONDS,
 * each looping over a mix: two hot GET /users/me, an intelligence resolve, a quote and its execute,
 * and a small enrichment job followed over its server-sent events until `complete`. Reports requests
 * per second, p50/p99 overall and per kind (the SSE row is the whole stream, creation to complete),
 * every 5xx (goal: none), then reconciles every credit of every account as the oneaccount suite does.
 */
export const throughputBench: BenchSuite = {
  name: `throughput: ${CLIENTS} concurrent clients for ${SECONDS} s over a mix`,
  async run(ctx) {
    const { print, ports } = ctx;
    if (!(await getSeedMarker())) await seedCuratedDataset({ scale: BENCH_DATASET_SCALE, concurrency: 16 });
    const keys = await Promise.all(Array.from({ length: CLIENTS }, () => newAccount()));
    const times = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
    const statuses = new Map<number, number>();
    let otherFailures = 0;
    let printedFailures = 0;
    let serial = 0;
    const timed = async <T>(kind: Kind, fn: () => Promise<T>): Promise<T> => {
      const start = performance.now();
      const out = await fn();
      mustGet(times, kind, 'timings').push(performance.now() - start);
      return out;
    };
    const request = async (key: string, method: string, path: string, body?: unknown, expect?: number) => {
      const response = await fetch(`${ctx.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (expect ? response.status !== expect : !response.ok)
        throw new HttpStatusError(
          response.status,
          `${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`,
        );
      return JSON.parse(text);
    };
    const follow = async (key: string, jobId: string) => {
      const response = await fetch(`${ctx.baseUrl}/bd/jobs/${jobId}/events`, {
        headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
      });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (!response.ok || !response.body) throw new HttpStatusError(response.status, `SSE answered ${response.status}`);
      let seen = '';
      const decoder = new TextDecoder();
      for await (const chunk of response.body) {
        seen += decoder.decode(chunk as Uint8Array, { stream: true });
        if (/^event: complete$/m.test(seen)) break;
      }
      if (!/^event: complete$/m.test(seen)) throw new Error(`job ${jobId}: the stream ended without complete`);
    };

    const started = performance.now();
    const until = started + SECONDS * 1000;
    await Promise.all(
      keys.map(async (key) => {
        for (let step = 0; performance.now() < until; step++) {
          // Distinct slots every time, so the identical-query rule never answers without a charge.
          const n = serial++;
          const slots = {
            sector_focus: 'defi',
            stage: 'seed',
            limit: 1 + (n % 100),
            min_investment: 1000 * (1 + Math.floor(n / 100)),
          };
          try {
            switch (step % 5) {
              case 0:
              case 1:
                await timed('GET /users/me', () => request(key, 'GET', '/users/me'));
                break;
              case 2:
                await timed('resolve', () =>
                  request(key, 'POST', '/intelligence/resolve', {
                    package_id: 'vc-shortlist-v1',
                    request_text: `${1 + (n % 50)} seed-stage DeFi VCs`,
                  }),
                );
                break;
              case 3: {
                const body = { package_id: 'vc-shortlist-v1', slots };
                const quote = await timed('quote', () => request(key, 'POST', '/intelligence/quote', body));
                await timed('execute', () =>
                  request(key, 'POST', '/intelligence/execute', { ...body, quote_token: quote.quote_token }),
                );
                break;
              }
              case 4: {
                const streamStart = performance.now();
                const job = await timed('create job', () =>
                  request(
                    key,
                    'POST',
                    '/bd/jobs',
                    {
                      requested_capabilities: ['email_verify'],
                      input_assets: { contacts: [{ email: `a${n}@nebulalabs.io` }, { email: `b${n}@mailinator.com` }] },
                    },
                    202,
                  ),
                );
                await follow(key, job.job_id);
                mustGet(times, 'job SSE to complete', 'timings').push(performance.now() - streamStart);
                break;
              }
            }
          } catch (err) {
            if (!(err instanceof HttpStatusError)) otherFailures++;
            if (printedFailures++ < 3) print(`  failed: ${(err as Error).message.slice(0, 200)}`);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await ports.queue.drained();

    report(ctx, times, statuses, seconds, otherFailures);
    await reconcile(ctx, keys);
  },
};

function report(
  { print }: BenchContext,
  times: Map<Kind, number[]>,
  statuses: Map<number, number>,
  seconds: number,
  otherFailures: number,
): void {
  // Requests are the HTTP calls; the SSE row's time covers a create and its stream, so it is not one.
  const all = KINDS.filter((k) => k !== 'job SSE to complete')
    .flatMap((k) => mustGet(times, k, 'timings'))
    .sort((a, b) => a - b);
  const streams = mustGet(times, 'job SSE to complete', 'timings').length;
  const requests = all.length + streams;
  const serverErrors = [...statuses].filter(([s]) => s >= 500).reduce((sum, [, n]) => sum + n, 0);
  print(
    `${requests} requests (${streams} of them SSE streams) in ${seconds.toFixed(1)} s = ${(requests / seconds).toFixed(1)} req/s; p50 ${percentile(all, 50).toFixed(0)} ms, p99 ${percentile(all, 99).toFixed(0)} ms (streams apart)`,
  );
  print(
    `  statuses: ${[...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s} x${n}`)
      .join(
        ', ',
      )}; 5xx: ${serverErrors}${serverErrors === 0 ? ' (goal met)' : ' (GOAL MISSED)'}; client-side failures: ${otherFailures}`,
  );
  for (const kind of KINDS) {
    const sorted = mustGet(times, kind, 'timings').sort((a, b) => a - b);
    print(
      `  ${kind.padEnd(20)} n=${String(sorted.length).padStart(5)}  p50=${percentile(sorted, 50).toFixed(0).padStart(6)} ms  p99=${percentile(sorted, 99).toFixed(0).padStart(6)} ms`,
    );
  }
  if (serverErrors > 0) process.exitCode = 1;
}
