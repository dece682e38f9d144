import type { BenchContext, BenchSuite } from './harness';
import { AWS_PRICES, dollarsOf, type CountedUsage } from './awsPrices';
import { PLATFORM_MESSAGES } from './costModeration';
import { consumedCapacity, countCapacity } from '#shared/store/client';
import { createAccount } from '#shared/domain/accounts/accounts';
import { seedCuratedDataset } from '#bin/curated/seed';
import { generateDataset } from '#bin/curated/generator';
import { getSeedMarker } from '#shared/store/curatedReads';
import { PACKAGES } from '#shared/domain/intelligence/packages';
import { PRO_PLAN } from '#shared/domain/billing/plans';
import { CAPABILITIES } from '#shared/domain/jobs/capabilities';
import { PROVIDER_NAMES, type LookupName } from '#shared/adapters/enrichment/port';
import { PROVIDERS } from '#shared/adapters/enrichment/catalog';
import { COMMUNITY_PRICING } from '#shared/domain/moderation/communityTypes';
import { announce, webhookEvent } from '#shared/domain/webhooks/outbox';
import { findUserIdByEmail } from '#shared/store/usersRepo';
import { writeTogether } from '#shared/store/transactions';
import { FUNCTIONS, type FunctionName } from '#infra/functionCatalog';
import { usageMeter } from '#bin/local/meter';
import { startJsonServer } from '#bin/standIns/httpStandIn';
import { uuidv7 } from '#shared/ids';

const N = Number(process.env.BENCH_COST_N ?? 10);
/** Moderated messages per platform (each waits for the platform's call). */
const MESSAGES = Number(process.env.BENCH_COST_MESSAGES ?? 5);
const JOB_COMPANIES = 1000;
/** The memory a function gets when the catalogue names none (infra/appFunction.ts). */
const DEFAULT_MEMORY_MB = 1024;
const memoryOf = (name: string) =>
  (Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name as FunctionName].memorySize : undefined) ?? DEFAULT_MEMORY_MB;
/** What one credit brings in on the pro plan. */
const USD_PER_CREDIT = PRO_PLAN.monthlyUsd / PRO_PLAN.periodCredits;
/** EventBridge and SQS bill each 64 KiB chunk of a payload. */
const chunks = (text: string) => Math.max(1, Math.ceil(Buffer.byteLength(text) / (64 * 1024)));

interface Counts {
  read: number;
  write: number;
  api: number;
  functions: Map<string, { invocations: number; ms: number }>;
  sqs: number;
  events: number;
}

function counts({ ports }: BenchContext): Counts {
  const capacity = consumedCapacity();
  const meter = usageMeter.snapshot();
  const sqs = [ports.queue, ports.webhookQueue].reduce(
    (sum, q) => sum + q.requests.send + q.requests.receive + q.requests.delete,
    0,
  );
  const events = ports.events.published.reduce(
    (sum, e) => sum + chunks(JSON.stringify({ DetailType: e.type, Detail: JSON.stringify(e.detail) })),
    0,
  );
  return {
    read: capacity.read,
    write: capacity.write,
    api: meter.apiRequests,
    functions: meter.functions,
    sqs,
    events,
  };
}

interface Row {
  label: string;
  usage: CountedUsage;
  /** Invocations per function, for the note under the table. */
  functions: string;
  credits: number;
}

/** What happened between two counts, per `per` operations. */
function usageBetween(before: Counts, after: Counts, per: number): Omit<Row, 'label' | 'credits'> {
  let invocations = 0;
  let gbSeconds = 0;
  const used: string[] = [];
  for (const [name, now] of after.functions) {
    const then = before.functions.get(name) ?? { invocations: 0, ms: 0 };
    const n = now.invocations - then.invocations;
    if (n === 0) continue;
    invocations += n;
    gbSeconds += ((now.ms - then.ms) / 1000) * (memoryOf(name) / 1024);
    used.push(`${name} ${n / per < 0.1 ? (n / per).toFixed(3) : (n / per).toFixed(1)}`);
  }
  return {
    functions: used.join(', '),
    usage: {
      readUnits: (after.read - before.read) / per,
      writeUnits: (after.write - before.write) / per,
      lambdaInvocations: invocations / per,
      lambdaGbSeconds: gbSeconds / per,
      apiRequests: (after.api - before.api) / per,
      sqsRequests: (after.sqs - before.sqs) / per,
      events: (after.events - before.events) / per,
    },
  };
}

/**
 * Dollars per operation at AWS on-demand prices (bin/bench/awsPrices.ts) from what the run counts:
 * DynamoDB read and write request units (ReturnConsumedCapacity on every request), API Gateway
 * requests and every Lambda invocation with its duration (bin/local/meter.ts: API groups, the
 * authorizer when API Gateway's cache would miss, the queue consumers, the schedules) at the
 * function's configured memory, the SQS requests the queues would bill and the EventBridge events
 * published. Asynchronous work is waited for before an operation's counts are taken. Lambda durations
 * are the local handlers' times on this machine, so an overestimate on a loaded one. Beside each, what
 * the caller is charged (x-credits-charged, or the job's charge) at the pro plan's dollars per credit.
 */
export const costBench: BenchSuite = {
  name: 'Cost per operation (US dollars)',
  async run(ctx) {
    const { baseUrl, proKey, print, ports } = ctx;
    countCapacity();
    const marker = (await getSeedMarker()) ?? (await seedCuratedDataset({})).marker;
    const rows: Row[] = [];
    const settle = async () => {
      await ports.queue.settled();
      await ports.webhookQueue.settled();
    };
    const timed = async (key: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
      return { credits: Number(response.headers.get('x-credits-charged') ?? 0), body: JSON.parse(text) };
    };
    /** Runs `op` `count` times, waiting for the work it queued, and keeps what one `per`-th of a run counted. */
    const row = async (
      label: string,
      op: (i: number) => Promise<{ credits: number }>,
      { count = N, per = 1 }: { count?: number; per?: number } = {},
    ) => {
      let credits = 0;
      const before = counts(ctx);
      for (let i = 0; i < count; i++) {
        credits += (await op(i)).credits;
        await settle();
      }
      const measured = { label, credits: credits / (count * per), ...usageBetween(before, counts(ctx), count * per) };
      rows.push(measured);
      return measured;
    };
    const newKey = async () =>
      (await createAccount({ email: `bench-cost-${uuidv7()}@example.com`, tier: 'pro', credits: 1_000_000 })).apiKey;
    const pkg = 'vc-shortlist-v1';
    const { limit: _limit, ...slots } = PACKAGES[pkg].example.slots as Record<string, unknown>;

    // The job's companies are generated before any row: seconds of CPU between two requests would let a
    // kept-alive connection expire under the client's feet.
    const curated = generateDataset({ seed: marker.seed, scale: marker.scale }).companies.slice(0, JOB_COMPANIES);
    const companies = Array.from({ length: JOB_COMPANIES }, (_, i) =>
      curated[i]
        ? { company_name: curated[i].name, website: curated[i].website }
        : { company_name: `Cost ${i}`, domain: `cost-${i}.example.org` },
    );
    await row('hot GET /users/me', () => timed(proKey, 'GET', '/users/me'));
    await row('POST /intelligence/quote', () =>
      timed(proKey, 'POST', '/intelligence/quote', { package_id: pkg, slots: { ...slots, limit: 10 } }),
    );
    const prepared: { key: string; token: string }[] = [];
    for (let i = 0; i < N; i++) {
      const key = await newKey();
      // A first call with the new key, so the execute meets API Gateway's authorizer cache warm, as a client's second call does.
      prepared.push({
        key,
        token: (await timed(key, 'POST', '/intelligence/quote', { package_id: pkg, slots: { ...slots, limit: 10 } }))
          .body.quote_token,
      });
    }
    const results: { key: string; resultId: string }[] = [];
    await row('POST /intelligence/execute, 10 records', async (i) => {
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
    await row('POST /intelligence/expand contact_unlock of 3', (i) =>
      timed(unlocks[i].key, 'POST', '/intelligence/expand', unlocks[i].body),
    );

    // An enrichment job of 1,000 companies (curated ones, found as a customer's list would be), per company.
    await row(
      `enrichment job of ${JOB_COMPANIES.toLocaleString('en-US')} companies, per company`,
      async () => {
        const created = await timed(proKey, 'POST', '/bd/jobs', {
          preset: 'full_pipeline',
          input_assets: { companies },
        });
        await ports.queue.drained();
        const job = (await timed(proKey, 'GET', `/bd/jobs/${created.body.job_id}`)).body;
        if (job.status !== 'completed') throw new Error(`Cost job ended ${job.status}: ${job.error_message}`);
        return { credits: job.credits_charged };
      },
      { count: 1, per: JOB_COMPANIES },
    );

    // One webhook delivery: an event committed as producers commit it, fanned out and POSTed, signed.
    const receiver = await startJsonServer(() => ({ status: 204 }));
    try {
      const endpoint = await ctx.call('POST', '/webhooks/endpoints', {
        body: { url: `${receiver.url}/cost`, event_types: ['credits.low'] },
        expect: 201,
      });
      const userId = await findUserIdByEmail('bench-pro@example.com');
      if (!userId) throw new Error('The bench account bench-pro@example.com is missing');
      await row('webhook delivery (fan-out and one signed POST)', async (i) => {
        const event = webhookEvent(userId, 'credits.low', { kind: 'credits', id: userId }, new Date().toISOString(), {
          extra: { available: i, threshold: 100 },
        });
        await writeTogether({ event: event.item });
        await announce([event]);
        return { credits: 0 };
      });
      await ctx.call('DELETE', `/webhooks/endpoints/${endpoint.id}`, { expect: 204 });
    } finally {
      await receiver.close();
    }

    const moderationRows: Row[] = [];
    for (const start of PLATFORM_MESSAGES) {
      // One platform failing is reported and the others still measured.
      const platform = await start(ctx).catch((err: Error) => {
        print(`  FAILED to set up ${start.name}: ${err.message.slice(0, 300)}`);
        process.exitCode = 1;
      });
      if (!platform) continue;
      try {
        const measured = await row(
          `moderated message, ${platform.platform} (${platform.path})`,
          async (i) => {
            await platform.message(i);
            return { credits: 0 };
          },
          { count: MESSAGES },
        );
        moderationRows.push(measured);
      } catch (err) {
        print(`  FAILED on ${platform.platform}: ${(err as Error).message.slice(0, 300)}`);
        process.exitCode = 1;
      } finally {
        await platform.close();
      }
    }

    print(
      `AWS on-demand prices of ${AWS_PRICES.asOf}, ${AWS_PRICES.region}, arm64 (bin/bench/awsPrices.ts); pro plan: $${USD_PER_CREDIT.toFixed(4)} per credit; mean of ${N} operations (a job: one of ${JOB_COMPANIES}; moderation: ${MESSAGES} messages).`,
    );
    const header = [
      'operation',
      'RRU',
      'WRU',
      'Lambda',
      'GB-s',
      'API',
      'SQS',
      'events',
      'AWS $',
      'credits',
      'charged $',
    ];
    const widths = [66, 7, 7, 7, 9, 5, 6, 7, 11, 8, 10];
    const line = (cells: string[]) =>
      print(cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' '));
    line(header);
    for (const r of rows) {
      const u = r.usage;
      line([
        r.label,
        u.readUnits.toFixed(1),
        u.writeUnits.toFixed(1),
        u.lambdaInvocations.toFixed(2),
        u.lambdaGbSeconds.toFixed(4),
        u.apiRequests.toFixed(2),
        u.sqsRequests.toFixed(2),
        u.events.toFixed(2),
        dollarsOf(u).toExponential(2),
        r.credits.toFixed(2),
        r.credits > 0 ? (r.credits * USD_PER_CREDIT).toFixed(4) : 'free',
      ]);
    }
    print('Lambda invocations per operation, by function:');
    for (const r of rows) print(`  ${r.label}: ${r.functions || 'none'}`);
    const monthlyUsd = COMMUNITY_PRICING.monthlyCredits * USD_PER_CREDIT;
    print(
      `A community pays ${COMMUNITY_PRICING.monthlyCredits} credits a month ($${monthlyUsd.toFixed(2)} at the pro plan's price); messages a month that cost AWS as much:`,
    );
    for (const r of moderationRows)
      print(
        `  ${r.label}: $${dollarsOf(r.usage).toExponential(2)} a message, break-even at ${Math.floor(monthlyUsd / dollarsOf(r.usage)).toLocaleString('en-US')} messages a month`,
      );
    printProviderMargins(print);
  },
};

/**
 * What a value bought from an outside provider earns against what its call costs, at each provider's
 * configured USD price per call (with its date): one call per delivered value, the worst case (an
 * address that came with a contact search, or from the cache, costs less; `npm run bench -- jobs` measures it).
 */
function printProviderMargins(print: (line: string) => void): void {
  print('Outside providers, one call per delivered value (the worst case; cached answers cost nothing):');
  for (const name of PROVIDER_NAMES) {
    const { prices } = PROVIDERS[name];
    for (const [lookup, usd] of Object.entries(prices.usdPerCall) as [LookupName, number][]) {
      const earns = CAPABILITIES[lookup].unitCredits * USD_PER_CREDIT;
      print(
        `  ${name} ${lookup} (prices of ${prices.asOf}): earns $${earns.toFixed(4)} (${CAPABILITIES[lookup].unitCredits} credits per ${CAPABILITIES[lookup].unit}), costs $${usd.toFixed(4)}, margin $${(earns - usd).toFixed(4)}`,
      );
    }
  }
}
