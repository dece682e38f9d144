/**
 * `npm run bench`: starts the local stack on an in-memory DynamoDB Local, runs every suite against it
 * over HTTP and prints latency percentiles, DynamoDB requests per API request and the bundles suite: each function's size and load time as ratios to a hello-world function.
 * Suites run in-process with the server, so DynamoDB requests are counted exactly; the local
 * authorizer caches its answers as API Gateway does, so the counts are the deployed ones. Every row
 * also shows its p50 as a multiple of a bare DynamoDB Local GetItem measured in the same run.
 */
import './bench/quietLogs';
import { reloadConfig } from '#shared/config/config';
import { providerSecretNames } from '#shared/adapters/enrichment/catalog';
import type { Server } from 'node:http';
import { ensureTable, startDynamo } from './local/dynamo';
import { installLocalPorts, LOCAL_TABLE, useLocalTable } from './local/runtime';
import { createLocalApi, listen } from './local/server';
import { ensureDemoAccount } from '#shared/domain/accounts/demo';
import { createBenchContext, type BenchSuite } from './bench/harness';
import { printBundleFigures } from './bench/bundles';
import { printConsoleFigures } from './bench/console';
import { printColdStarts } from './bench/coldStart';
import { platformBench } from './bench/platform';
import { intelligenceBench } from './bench/intelligence';
import { jobsBench } from './bench/jobs';
import { jobsProvidersBench } from './bench/jobsProviders';
import { moderationBench } from './bench/moderation';
import { moderationQualityBench } from './bench/moderationQuality';
import { growthBench } from './bench/growth';
import { firstStartBench } from './bench/firstStart';
import { platformModerationBench } from './bench/platformModeration';
import { crispModerationBench } from './bench/crispModeration';
import { webhooksBench } from './bench/webhooks';
import { mcpBench } from './bench/mcp';
import { oneAccountBench } from './bench/oneAccount';
import { redditModerationBench } from './bench/redditModeration';
import { costBench } from './bench/cost';
import { throughputBench } from './bench/throughput';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from '#shared/store/client';
import { userProfileKey } from '#shared/store/keys';

const SUITES: BenchSuite[] = [
  firstStartBench,
  platformBench,
  growthBench,
  moderationBench,
  moderationQualityBench,
  platformModerationBench,
  crispModerationBench,
  jobsBench,
  jobsProvidersBench,
  intelligenceBench,
  webhooksBench,
  mcpBench,
  oneAccountBench,
  throughputBench,
  costBench,
  // After the cost suite: its 120 subreddits would be in every minute's poll the cost suite pays for.
  redditModerationBench,
];

const only = process.argv.slice(2).find((a) => !a.startsWith('--'));
const suiteNames = [...SUITES.map((s) => s.name), 'bundles', 'console', 'cold'];
if (only && !suiteNames.some((name) => name.toLowerCase().includes(only.toLowerCase()))) {
  console.error(`No bench suite matches "${only}". Suites: ${suiteNames.join(', ')} (a part of a name is enough).`);
  process.exit(2);
}
const suites = SUITES.filter((s) => !only || s.name.toLowerCase().includes(only.toLowerCase()));
if (!only || 'console'.includes(only.toLowerCase())) {
  console.log('\n== Web console (what a browser downloads)');
  printConsoleFigures();
}
// The bundles suite builds and loads bundles in child processes: it needs no DynamoDB, so it alone starts none.
if (suites.length) await runServerSuites(suites);
if (!only || 'bundles'.includes(only.toLowerCase())) {
  console.log('\n== Function bundles (size and cold module load beside a hello-world that sends one GetItem)');
  await printBundleFigures();
}
if (!only || 'cold'.includes(only.toLowerCase())) {
  console.log('\n== Cold starts (fresh process, import, first call of a real route) beside the hello-world');
  await printColdStarts();
}
process.exit();

async function runServerSuites(selected: BenchSuite[]): Promise<void> {
  // The suites sync one community again and again to time each poll: the spacing a deployment keeps
  // between a community's on-demand polls (10 s) would refuse them, so it is off here, as in the tests.
  process.env.MODERATION_SYNC_INTERVAL_SECONDS ??= '0';
  // The suites' jobs never reach a real data provider (and its bill): the provider suite uses its stand-in.
  for (const name of providerSecretNames()) delete process.env[name];
  reloadConfig();
  const dynamo = await startDynamo();
  useLocalTable(dynamo.endpoint, LOCAL_TABLE);
  await ensureTable(dynamo.endpoint, LOCAL_TABLE);
  const ports = installLocalPorts();
  const proKey = await ensureDemoAccount({ email: 'bench-pro@example.com', tier: 'pro', credits: 10_000_000 });
  const developerKey = await ensureDemoAccount({ email: 'bench-dev@example.com', tier: 'developer', credits: 0 });
  const server: Server = createLocalApi();
  const port = await listen(server, 0);
  const ctx = createBenchContext({ baseUrl: `http://127.0.0.1:${port}/api/v1`, proKey, developerKey, ports });
  // The yardstick of every row: one GetItem straight to DynamoDB Local, measured in this run.
  const bare = await ctx.measure('bare DynamoDB Local GetItem (baseline)', 200, () =>
    ddb().send(new GetCommand({ TableName: table(), Key: userProfileKey('bench-baseline') })),
  );
  ctx.setBaseline(bare.p50);
  try {
    for (const suite of selected) {
      console.log(`\n== ${suite.name}`);
      await suite.run(ctx);
    }
  } finally {
    ports.queue.stop();
    ports.webhookQueue.stop();
    server.closeAllConnections();
    server.close();
    await dynamo.stop();
  }
}
