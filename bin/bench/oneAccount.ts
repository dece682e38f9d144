import { mustGet } from '#shared/maps';
import { createAccount } from '#shared/domain/accounts/accounts';
import { getBalance, ledgerBetween } from '#shared/domain/credits/credits';
import { seedCuratedDataset } from '#bin/curated/seed';
import { getSeedMarker } from '#shared/store/curatedReads';
import { uuidv7 } from '#shared/ids';
import type { BenchContext, BenchSuite } from './harness';

const CLIENTS = Number(process.env.BENCH_ONEACCOUNT_CLIENTS ?? 20);
const SECONDS = Number(process.env.BENCH_ONEACCOUNT_SECONDS ?? 15);
/** What every bench account starts with; reconciliation counts down from it. */
export const START_CREDITS = 10_000_000;
/** A third of the curated dataset (as the jobs suite seeds) is enough to execute a package. */
export const BENCH_DATASET_SCALE = 0.33;

type Kind = 'quote' | 'execute' | 'create job';
const KINDS: Kind[] = ['quote', 'execute', 'create job'];
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface Round {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  byKind: Map<Kind, number[]>;
}

/**
 * Concurrent clients that spend on their account for a fixed time, each in a loop: quote and execute a
 * package (a charge), then create a small enrichment job (a reservation, settled by the in-process
 * worker). Run twice in the same process: every client on one account (they all meet on its balance),
 * then every client on its own account, so the one-account figures can be read as a ratio to the
 * spread ones on whatever load the machine has. After each round the queue is drained and every
 * account is reconciled: the credits it started with, less what it has now, equal its ledger.
 */
export const oneAccountBench: BenchSuite = {
  name: `oneaccount: ${CLIENTS} concurrent clients on one account`,
  async run(ctx) {
    const { print, ports } = ctx;
    const marker = await getSeedMarker();
    if (!marker) await seedCuratedDataset({ scale: BENCH_DATASET_SCALE, concurrency: 16 });
    const oneKey = await newAccount();
    const spread = await runRound(
      ctx,
      Array.from({ length: CLIENTS }, () => undefined),
      'spread',
    );
    const one = await runRound(
      ctx,
      Array.from({ length: CLIENTS }, () => oneKey),
      'one',
    );
    print(
      `one account / spread: p50 x${(one.p50 / spread.p50).toFixed(2)}, p99 x${(one.p99 / spread.p99).toFixed(2)}, throughput x${(one.requests / one.seconds / (spread.requests / spread.seconds)).toFixed(2)}`,
    );
    await ports.queue.drained();
  },
};

/** A pro account with START_CREDITS, for a bench client; its API key. */
export async function newAccount(): Promise<string> {
  return (await createAccount({ email: `bench-one-${uuidv7()}@example.com`, tier: 'pro', credits: START_CREDITS }))
    .apiKey;
}

async function runRound(ctx: BenchContext, keys: (string | undefined)[], label: 'one' | 'spread'): Promise<Round> {
  const { call, print, ports } = ctx;
  const clientKeys = await Promise.all(keys.map(async (k) => k ?? newAccount()));
  const byKind = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
  const all: number[] = [];
  let failures = 0;
  let serial = 0;
  const timed = async <T>(kind: Kind, fn: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      const ms = performance.now() - start;
      mustGet(byKind, kind, 'byKind').push(ms);
      all.push(ms);
    }
  };
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    clientKeys.map(async (key) => {
      while (performance.now() < until) {
        // Distinct slots every time, so the identical-query rule never answers without a charge.
        const n = serial++;
        const body = {
          package_id: 'vc-shortlist-v1',
          slots: {
            sector_focus: 'defi',
            stage: 'seed',
            limit: 1 + (n % 100),
            min_investment: 1000 * (1 + Math.floor(n / 100)),
          },
        };
        try {
          const quote = await timed('quote', () => call('POST', '/intelligence/quote', { key, body }));
          await timed('execute', () =>
            call('POST', '/intelligence/execute', { key, body: { ...body, quote_token: quote.quote_token } }),
          );
          await timed('create job', () =>
            call('POST', '/bd/jobs', {
              key,
              expect: 202,
              body: {
                requested_capabilities: ['email_verify'],
                input_assets: { contacts: [{ email: `a${n}@nebulalabs.io` }, { email: `b${n}@mailinator.com` }] },
              },
            }),
          );
        } catch (err) {
          failures++;
          if (failures <= 3) print(`  failed: ${(err as Error).message.slice(0, 200)}`);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await ports.queue.drained();

  all.sort((a, b) => a - b);
  const round: Round = { requests: all.length, seconds, p50: percentile(all, 50), p99: percentile(all, 99), byKind };
  print(
    `${label === 'one' ? 'one account' : `${CLIENTS} accounts`}: ${all.length} requests in ${seconds.toFixed(1)} s = ${(all.length / seconds).toFixed(1)} req/s, p50 ${round.p50.toFixed(0)} ms, p99 ${round.p99.toFixed(0)} ms, ${failures} failed loops`,
  );
  for (const kind of KINDS) {
    const times = mustGet(byKind, kind, 'byKind').sort((a, b) => a - b);
    print(
      `  ${kind.padEnd(11)} n=${String(times.length).padStart(5)}  p50=${percentile(times, 50).toFixed(0).padStart(6)} ms  p95=${percentile(times, 95).toFixed(0).padStart(6)} ms  p99=${percentile(times, 99).toFixed(0).padStart(6)} ms`,
    );
  }
  await reconcile(ctx, [...new Set(clientKeys)]);
  return round;
}

/** Every account: START_CREDITS - available now = the sum of its ledger (charges, settlements, refunds). */
export async function reconcile({ call, print }: BenchContext, keys: string[]): Promise<void> {
  let mismatches = 0;
  let ledgerTotal = 0;
  for (const key of keys) {
    const me = await call('GET', '/users/me', { key });
    const balance = await getBalance(me.id);
    const entries = await ledgerBetween(me.id, '2000-01-01T00:00:00.000Z', '9999-01-01T00:00:00.000Z');
    const ledger = entries.reduce((sum, e) => sum + e.credits, 0);
    ledgerTotal += ledger;
    if (START_CREDITS - balance.available !== ledger) {
      mismatches++;
      print(`  RECONCILIATION FAILED for ${me.id}: spent ${START_CREDITS - balance.available}, ledger ${ledger}`);
    }
  }
  print(
    `  reconciliation: ${keys.length} account(s), ${ledgerTotal} credits in the ledger, ${mismatches === 0 ? 'every credit accounted for' : `${mismatches} MISMATCHED`}`,
  );
  if (mismatches > 0) process.exitCode = 1;
}
