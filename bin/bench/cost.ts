import type { BenchSuite } from './harness';
import { AWS_PRICES, dollarsOf, type CountedUsage } from './awsPrices';
import { consumedCapacity, countCapacity } from '#shared/store/client';
import { createAccount } from '#shared/domain/accounts/accounts';
import { seedCuratedDataset } from '#shared/data/seed';
import { getSeedMarker } from '#shared/store/curatedRepo';
import { PACKAGES } from '#shared/domain/intelligence/packages';
import { PRO_PLAN } from '#shared/domain/billing/plans';
import { FUNCTIONS, type FunctionName } from '#infra/functionCatalog';
import { uuidv7 } from '#shared/ids';

const N = Number(process.env.BENCH_COST_N ?? 10);
/** The memory a function gets when the catalogue names none (infra/appFunction.ts). */
const DEFAULT_MEMORY_MB = 1024;
const memoryOf = (name: FunctionName) => FUNCTIONS[name].memorySize ?? DEFAULT_MEMORY_MB;
/** What one credit brings in on the pro plan. */
const USD_PER_CREDIT = PRO_PLAN.monthlyUsd / PRO_PLAN.periodCredits;

/**
 * Dollars per operation at AWS on-demand prices (bin/bench/awsPrices.ts) from what the run counts:
 * DynamoDB read and write request units (ReturnConsumedCapacity on every request of the operation),
 * one API Gateway request and one Lambda invocation per call (the authorizer's answer is cached, as
 * API Gateway caches it), Lambda duration taken as the call's measured time in the local server at
 * the function's configured memory; beside it what the caller is charged (x-credits-charged) at the
 * pro plan's dollars per credit. Operations here queue nothing and publish no event.
 */
export const costBench: BenchSuite = {
  name: 'Cost per operation (US dollars)',
  async run({ baseUrl, proKey, print }) {
    countCapacity();
    if (!(await getSeedMarker())) await seedCuratedDataset({});
    const rows: { label: string; usage: CountedUsage; credits: number }[] = [];
    const timed = async (key: string, method: string, path: string, body?: unknown) => {
      const start = performance.now();
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
      return {
        ms: performance.now() - start,
        credits: Number(response.headers.get('x-credits-charged') ?? 0),
        body: JSON.parse(text),
      };
    };
    /** Runs `op` n times and keeps the mean of what one run counted. */
    const row = async (
      label: string,
      fn: FunctionName,
      op: (i: number) => Promise<{ ms: number; credits: number }>,
    ) => {
      let ms = 0;
      let credits = 0;
      const before = consumedCapacity();
      for (let i = 0; i < N; i++) {
        const r = await op(i);
        ms += r.ms;
        credits += r.credits;
      }
      const after = consumedCapacity();
      rows.push({
        label,
        credits: credits / N,
        usage: {
          readUnits: (after.read - before.read) / N,
          writeUnits: (after.write - before.write) / N,
          lambdaInvocations: 1,
          lambdaMs: ms / N,
          memoryMb: memoryOf(fn),
          apiRequests: 1,
          sqsRequests: 0,
          events: 0,
        },
      });
    };
    const newKey = async () =>
      (await createAccount({ email: `bench-cost-${uuidv7()}@example.com`, tier: 'pro', credits: 1_000_000 })).apiKey;
    const pkg = 'vc-shortlist-v1';
    const { limit: _limit, ...slots } = PACKAGES[pkg].example.slots as Record<string, unknown>;

    await row('hot GET /users/me', 'account', () => timed(proKey, 'GET', '/users/me'));
    await row('POST /intelligence/quote', 'intelligence', () =>
      timed(proKey, 'POST', '/intelligence/quote', { package_id: pkg, slots: { ...slots, limit: 10 } }),
    );
    const prepared: { key: string; token: string }[] = [];
    for (let i = 0; i < N; i++) {
      const key = await newKey();
      prepared.push({
        key,
        token: (await timed(key, 'POST', '/intelligence/quote', { package_id: pkg, slots: { ...slots, limit: 10 } }))
          .body.quote_token,
      });
    }
    const results: { key: string; resultId: string }[] = [];
    await row('POST /intelligence/execute, 10 records', 'intelligence', async (i) => {
      const r = await timed(prepared[i].key, 'POST', '/intelligence/execute', {
        package_id: pkg,
        slots: { ...slots, limit: 10 },
        quote_token: prepared[i].token,
      });
      results.push({ key: prepared[i].key, resultId: r.body.result_id });
      return r;
    });
    const unlocks: { key: string; body: unknown }[] = [];
    for (const { key, resultId } of results) {
      const ids = (await timed(key, 'GET', `/intelligence/results/${resultId}`)).body.records
        .slice(0, 3)
        .map((r: { record_id: string }) => r.record_id);
      const params = { selection: { mode: 'ids', record_ids: ids }, contact_tier: 'email' };
      const scope = { parent_result_id: resultId, expansion_type: 'contact_unlock', expansion_params: params };
      const token = (await timed(key, 'POST', '/intelligence/quote', { package_id: pkg, expansion_scope: scope })).body
        .quote_token;
      unlocks.push({ key, body: { ...scope, quote_token: token } });
    }
    await row('POST /intelligence/expand contact_unlock of 3', 'intelligence', (i) =>
      timed(unlocks[i].key, 'POST', '/intelligence/expand', unlocks[i].body),
    );

    print(
      `AWS on-demand prices of ${AWS_PRICES.asOf}, ${AWS_PRICES.region}, arm64 (bin/bench/awsPrices.ts); pro plan: $${USD_PER_CREDIT.toFixed(4)} per credit; mean of ${N} operations each.`,
    );
    print(
      `${'operation'.padEnd(46)} ${'RRU'.padStart(6)} ${'WRU'.padStart(6)} ${'ms'.padStart(7)} ${'MB'.padStart(5)} ${'AWS $'.padStart(11)} ${'credits'.padStart(8)} ${'charged $'.padStart(10)} ${'charged/AWS'.padStart(12)}`,
    );
    for (const r of rows) {
      const cost = dollarsOf(r.usage);
      const charged = r.credits * USD_PER_CREDIT;
      const multiple = charged > 0 ? `${Math.round(charged / cost).toLocaleString('en-US')}x` : 'free';
      print(
        `${r.label.padEnd(46)} ${r.usage.readUnits.toFixed(1).padStart(6)} ${r.usage.writeUnits.toFixed(1).padStart(6)} ${r.usage.lambdaMs.toFixed(1).padStart(7)} ${String(r.usage.memoryMb).padStart(5)} ` +
          `${cost.toExponential(2).padStart(11)} ${r.credits.toFixed(1).padStart(8)} ${charged.toFixed(4).padStart(10)} ${multiple.padStart(12)}`,
      );
    }
  },
};
