import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { ScheduledEvent } from 'aws-lambda';
import { installPorts } from '#shared/adapters/ports';
import { systemClock, type Clock } from '#shared/adapters/clock';
import { RecordingEvents } from '#shared/adapters/domainEvents';
import { TableDns } from '#shared/adapters/dns';
import { SystemResolver, TableResolver } from '#shared/adapters/hostResolver';
import { paymentsFromConfig } from '#shared/adapters/payments';
import { EnvSecrets } from '#shared/adapters/secrets';
import { ephemeralEncryption, keyFileEncryption } from '#shared/adapters/encryption';
import { uuidv7 } from '#shared/ids';
import { config, reloadConfig } from '#shared/config/config';
import { ensureDemoAccount } from '#shared/domain/accounts/demo';
import { ensureTable, localHost, startDynamo, type LocalDynamo } from './dynamo';
import { InProcessQueue } from './queue';
import { createLocalApi, listen } from './server';
import {
  captchaHandler,
  deadLetterHandler,
  pollHandler,
  renewalsHandler,
  webhookSenderHandler,
  workerHandler,
} from './handlers';
import { recordLocalEndpoint } from './endpointFile';
import { KeptDemoKeys } from './demoKeys';
import { DatasetLoad } from './datasetLoad';
import type { EarlyStart } from './earlyStart';
import { startPhase } from './startTimings';
import { lambdaContext } from './lambdaContext';
import { usageMeter } from './meter';
import { superviseJobs } from '#shared/domain/jobs/watchdog';
import { requeueStalledDeliveries } from '#shared/domain/moderation/platformCallRunner';
import { resumePlatformWork } from '#shared/domain/moderation/platformWorkSweeps';
import { seedPhishingList } from '#shared/domain/moderation/phishingListRefresh';

export const LOCAL_TABLE = 'outreach-local';

/** Points the data layer at a DynamoDB endpoint and table (before any handler runs). */
export function useLocalTable(endpoint: string, tableName = LOCAL_TABLE): void {
  process.env.DYNAMODB_ENDPOINT = endpoint;
  process.env.TABLE_NAME = tableName;
  process.env.AWS_REGION ??= 'us-east-1';
  // Outbound webhooks may reach receivers on this machine (deployed functions never set this).
  process.env.WEBHOOK_ADDRESS_POLICY ??= 'local';
  process.env.STRIPE_WEBHOOK_SECRET ??= `whsec_${randomBytes(24).toString('hex')}`;
  reloadConfig();
}

export interface LocalPorts {
  queue: InProcessQueue;
  events: RecordingEvents;
  dns: TableDns;
  webhookQueue: InProcessQueue;
  hostResolver: TableResolver;
}

/** Installs the in-process ports; the queue feeds the same worker handler SQS would. */
export function installLocalPorts(
  clock: Clock = systemClock,
  options: { realDns?: boolean; keyDir?: string } = {},
): LocalPorts {
  const queue = new InProcessQueue({ batchSize: 10, maxReceiveCount: 3, visibilityDelayMs: 50 });
  const events = new RecordingEvents();
  const dns = new TableDns();
  // Webhook attempts fail by design (a receiver down); they reschedule themselves, so the queue's own
  // redelivery only covers a crashed consumer.
  const webhookQueue = new InProcessQueue({ batchSize: 10, maxReceiveCount: 5, visibilityDelayMs: 1000 });
  // `npm start` may call receivers anywhere; tests answer every name from the table (no network).
  const hostResolver = new TableResolver(options.realDns === false ? undefined : new SystemResolver());
  // Sealed tokens must open after a restart: the key is kept beside the data (tests make their own).
  const encryption = options.keyDir ? keyFileEncryption(options.keyDir) : ephemeralEncryption();
  installPorts({
    clock,
    queue,
    events,
    dns,
    payments: paymentsFromConfig(uuidv7),
    secrets: new EnvSecrets(),
    webhookQueue,
    hostResolver,
    encryption,
  });
  queue.setConsumer(async (event) =>
    usageMeter.invoke('worker', async () => (await workerHandler())(event, lambdaContext('worker', uuidv7()))),
  );
  webhookQueue.setConsumer(async (event) =>
    usageMeter.invoke('webhook-sender', async () =>
      (await webhookSenderHandler())(event, lambdaContext('webhook-sender', uuidv7())),
    ),
  );
  // The deployed dead-letter queue's consumer, fenced to its own ports as in AWS: the job of a message that kept failing fails.
  queue.onDeadLetter = async (event) =>
    usageMeter.invoke('dead-letters', async () =>
      (await deadLetterHandler())(event, lambdaContext('dead-letters', uuidv7())),
    );
  return { queue, events, dns, webhookQueue, hostResolver };
}

/** What EventBridge hands a scheduled function (only `time` is read). */
const scheduledEvent = (at: Date): ScheduledEvent => ({
  version: '0',
  id: uuidv7(),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '000000000000',
  time: at.toISOString(),
  region: 'local',
  resources: [],
  detail: {},
});

export async function runRenewalSweep(at = new Date()): Promise<unknown> {
  return usageMeter.invoke('renewals', async () =>
    (await renewalsHandler())(scheduledEvent(at), lambdaContext('renewals', uuidv7())),
  );
}

/** The captcha timeouts' schedule locally (EventBridge runs it every minute in AWS). */
const CAPTCHA_SWEEP_SECONDS = 15;

export async function runCaptchaSweep(at = new Date()): Promise<unknown> {
  return usageMeter.invoke('captchas', async () =>
    (await captchaHandler())(scheduledEvent(at), lambdaContext('captchas', uuidv7())),
  );
}

/** The polled platforms' minute (EventBridge's rate in AWS); POLL_INTERVAL_SECONDS changes it locally. */
const POLL_SECONDS = 60;

export async function runPollSchedule(at = new Date()): Promise<unknown> {
  return usageMeter.invoke('polls', async () =>
    (await pollHandler())(scheduledEvent(at), lambdaContext('polls', uuidv7())),
  );
}

export interface LocalRuntime {
  baseUrl: string;
  /**
   * The demo accounts' keys; undefined when the account's key was rotated since it was last shown
   * (only its hash is stored, so it cannot be shown again: the rotated key keeps working).
   */
  proKey: string | undefined;
  developerKey: string | undefined;
  ports: LocalPorts;
  /** Settles when the curated dataset is complete (a first start loads it in the background). */
  datasetLoaded: Promise<void>;
  stop(): Promise<void>;
}

export interface LocalRuntimeOptions {
  port: number;
  dataDir: string;
  fresh: boolean;
  renewalsEverySeconds: number;
  /** A DynamoDB Local already running (tests): used instead of starting one, and left running on stop. */
  dynamo?: { endpoint: string; tableName: string; datasetScale: number };
  /** `npm start`: DynamoDB Local and the dataset, begun before this module loaded (earlyStart.ts; `fresh` already applied). */
  early?: EarlyStart;
}

/**
 * The in-process queue died with the last process: every job still in flight is resumed from its last
 * committed step (the step guards make anything already done a no-op), and platform moderation's
 * calls, which were on the same queue, are queued again.
 */
async function resumeUnfinishedWork(): Promise<void> {
  const [resumed, deliveries, platformWork] = await Promise.all([
    superviseJobs({ ...config().jobWatchdog, resume: true }),
    requeueStalledDeliveries({ resume: true }),
    resumePlatformWork(),
  ]);
  if (resumed.stalled > 0)
    process.stderr.write(
      `Resumed ${resumed.redriven} unfinished jobs (${resumed.cancelled} cancelled, ${resumed.skipped} skipped).\n`,
    );
  if (deliveries.requeued > 0) process.stderr.write(`Resumed ${deliveries.requeued} pending platform deliveries.\n`);
  for (const { resumed: what, report } of platformWork)
    if (report.requeued > 0) process.stderr.write(`Resumed ${report.requeued} ${what}.\n`);
}

/**
 * `npm start` is read by a person, who watches its terminal for the keys and the stand-ins' lines: an
 * access line per request would bury them, so the local server writes those at debug
 * (`LOG_LEVEL=debug npm start` shows them). The suites' servers keep them at INFO, as deployed.
 */
export function useLocalLogging(): void {
  process.env.ACCESS_LOG_LEVEL ||= 'debug';
  reloadConfig();
}

export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  useLocalLogging();
  if (options.fresh && !options.dynamo && !options.early) rmSync(options.dataDir, { recursive: true, force: true });
  const dynamo: LocalDynamo = options.dynamo
    ? { endpoint: options.dynamo.endpoint, stop: async () => undefined }
    : await (options.early?.dynamo ?? startDynamo({ dataDir: options.dataDir }));
  const tableName = options.dynamo?.tableName ?? LOCAL_TABLE;
  useLocalTable(dynamo.endpoint, tableName);
  await ensureTable(dynamo.endpoint, tableName);
  startPhase('table ready');
  if (!options.dynamo) recordLocalEndpoint(dynamo.endpoint);
  const ports = installLocalPorts(systemClock, { keyDir: options.dataDir || undefined });
  // With a data folder (`npm start`) the demo accounts keep whatever key they have across restarts,
  // a key rotated over the API included; without one (tests, the benchmark) each start issues new keys.
  const kept = options.dataDir ? new KeptDemoKeys(options.dataDir) : undefined;
  const demoKey = async (email: string, tier: 'pro' | 'developer', credits: number, fixedKey: string | undefined) => {
    const key = await ensureDemoAccount({
      email,
      tier,
      credits,
      apiKey: fixedKey || undefined,
      keep: kept ? { lastKey: kept.get(email) } : undefined,
    });
    if (key) kept?.keep(email, key);
    return key;
  };
  // What the last process left (the three resumes) and the demo accounts are independent: done at
  // once, as the keys a first start prints wait on all of them.
  const [, , proKey, developerKey] = await Promise.all([
    resumeUnfinishedWork(),
    // The local server downloads nothing by itself: the package's copy of the phishing list, once
    // (`npm run admin -- phishing refresh` fetches the published one).
    seedPhishingList(),
    demoKey('demo-pro@example.com', 'pro', 100_000, process.env.DEMO_PRO_API_KEY),
    demoKey('demo-developer@example.com', 'developer', 0, process.env.DEMO_DEVELOPER_API_KEY),
  ]);
  startPhase('demo accounts ready');

  const seed = options.early?.seed;
  const dataset = new DatasetLoad(options.dynamo?.datasetScale, seed);
  dataset.loaded.catch((err) =>
    console.error('Loading the curated dataset failed; run `npm run admin -- seed` to finish it.', err),
  );
  const server: Server = createLocalApi({ curatedDatasetUnavailable: () => dataset.unavailable() });
  const host = localHost();
  const port = await listen(server, options.port, host);
  startPhase('API listening');
  // A HOST naming one address (a LAN interface) is where the API is reached; loopback and "every interface" answer on localhost.
  const reachAt = ['127.0.0.1', '0.0.0.0', '::', '::1'].includes(host)
    ? 'localhost'
    : host.includes(':')
      ? `[${host}]`
      : host;
  const baseUrl = `http://${reachAt}:${port}/api/v1`;
  process.env.PUBLIC_BASE_URL ??= baseUrl;
  reloadConfig();
  const schedule = setInterval(
    () => void runRenewalSweep().catch((err) => console.error('renewal sweep failed', err)),
    options.renewalsEverySeconds * 1000,
  );
  schedule.unref();
  const captchas = setInterval(
    () => void runCaptchaSweep().catch((err) => console.error('captcha sweep failed', err)),
    CAPTCHA_SWEEP_SECONDS * 1000,
  );
  captchas.unref();
  const pollEvery = Number(process.env.POLL_INTERVAL_SECONDS ?? POLL_SECONDS);
  const polls = setInterval(
    () => void runPollSchedule().catch((err) => console.error('poll schedule failed', err)),
    pollEvery * 1000,
  );
  polls.unref();

  return {
    baseUrl,
    proKey,
    developerKey,
    ports,
    datasetLoaded: dataset.loaded,
    stop: async () => {
      await dataset.loaded.catch(() => undefined);
      clearInterval(schedule);
      clearInterval(captchas);
      clearInterval(polls);
      await ports.queue.shutdown();
      await ports.webhookQueue.shutdown();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await dynamo.stop();
    },
  };
}
