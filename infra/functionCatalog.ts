import { Duration } from 'aws-cdk-lib';
import { DISPOSABLE_DOMAINS_FILE } from '#shared/domain/jobs/disposableDomainsCodec';
import { FUNCTION_WIRING, type FunctionName, type PortName, wiringOf } from '#shared/adapters/functionWiring';

/** The disposable-domain list (bin/generateDisposableDomains.ts), read by the e-mail verification stage. */
export const DISPOSABLE_DOMAINS_SIDE_FILE = `shared/domain/jobs/${DISPOSABLE_DOMAINS_FILE}`;

/** The OpenAPI document built ahead from the schemas (`npm run openapi`), served by the public function. */
export const OPENAPI_SIDE_FILE = 'functions/public/openapi.json';
/** The web console's script (built ahead by `npm run console` from console/) and styles, served by the public function. */
export const CONSOLE_SIDE_FILES = ['functions/public/console.js', 'functions/public/console.css'] as const;

/**
 * What a function may do beyond writing its own logs: the stack turns this into grants and env. The
 * table access and ports come from its wiring (shared/adapters/functionWiring.ts, which its handler
 * installs); the rest is how it is deployed.
 */
export interface FunctionNeeds {
  description: string;
  /** Table access: `read` for functions that only look things up. */
  table: 'none' | 'read' | 'readWrite';
  /** Sends messages to the pipeline queue (PIPELINE_QUEUE_URL): wired to `queue`. */
  queue?: boolean;
  /** Sends to the outbound webhook queue (WEBHOOK_QUEUE_URL): wired to `webhookQueue`. */
  webhookQueue?: boolean;
  /** Publishes domain events to the bus (EVENT_BUS_NAME): wired to `events`. */
  events?: boolean;
  /** Talks to Stripe or verifies its webhooks (STRIPE_* settings): wired to `payments`, or to the `stripe` secret. */
  stripe?: boolean;
  /** Reads the operator's platform credentials from the Secrets Manager secret at run time: wired to the `platforms` secret. */
  platformSecret?: boolean;
  /** Reads the enrichment providers' keys from their Secrets Manager secret at run time: wired to the `providers` secret. */
  providerSecret?: boolean;
  /** Seals and opens X communities' OAuth tokens with the token KMS key (TOKEN_KEY_ARN): GenerateDataKey and Decrypt only. */
  tokenKey?: boolean;
  /**
   * Data files (paths from the project root) the function reads at run time from beside its bundle
   * rather than carrying them as code: the stack copies each into the function's asset under its own
   * name (infra/bundling.ts, sideFileHooks).
   */
  sideFiles?: string[];
  /**
   * Shows communities as their GET does (an API answer, an MCP tool, a webhook event's data), whose
   * Discord `install_url` is built from the public DISCORD_APPLICATION_ID.
   */
  showsCommunities?: boolean;
  timeout?: Duration;
  memorySize?: number;
}

export type { FunctionName };

/** How a function is deployed; what it touches is its wiring. */
type Deployment = Omit<
  FunctionNeeds,
  'table' | 'queue' | 'webhookQueue' | 'events' | 'stripe' | 'platformSecret' | 'providerSecret' | 'tokenKey'
>;

/**
 * Every Lambda, one per folder in functions/. A new API group gets a compile error here until it
 * says what it needs (and the stack refuses to synthesize without an entry).
 */
const DEPLOYMENTS: Record<FunctionName, Deployment> = {
  public: {
    description: 'Health, the OpenAPI document and the web console',
    sideFiles: [OPENAPI_SIDE_FILE, ...CONSOLE_SIDE_FILES],
  },
  webhooks: { description: 'Stripe webhooks and the local checkout pages' },
  account: { description: 'Profile, API key, subscription, checkout and credit usage' },
  storage: { description: 'Chats and stored results' },
  intelligence: { description: 'Growth intelligence queries' },
  growth: { description: 'Growth actions' },
  jobs: { description: 'Enrichment jobs' },
  moderation: { description: 'Community moderation', showsCommunities: true },
  outbound: { description: 'Outbound webhook endpoints and the delivery log' },
  // Runs the tools' routes in process through their own handlers: what those routes need, and no
  // more (no Stripe: no tool starts a checkout; no platform secret: no tool talks to a platform).
  mcp: {
    description: 'MCP server for AI agents: the API as tools (Streamable HTTP, stateless)',
    showsCommunities: true,
  },
  // Identifies the caller from the API key hash: a single lookup, nothing written.
  authorizer: {
    description: 'TOKEN authorizer: bearer API key to user',
    memorySize: 512,
    timeout: Duration.seconds(10),
  },
  // Server-sent events of a job's progress: reads the job until it is terminal. API Gateway allows
  // a streamed response up to 15 minutes; a reconnecting client gets the current state first.
  'jobs-events': {
    description: 'Job progress as server-sent events (response streaming)',
    timeout: Duration.minutes(15),
  },
  // The queue's visibility timeout is derived from this (see pipeline.ts). Its e-mail verification
  // stage reads the disposable-domain list from beside the bundle.
  worker: {
    description: 'Pipeline stage worker and platform moderation calls (SQS batches, partial failures)',
    sideFiles: [DISPOSABLE_DOMAINS_SIDE_FILE],
    timeout: Duration.minutes(2),
  },
  // The worker fails a job itself when a message's last delivery throws; a delivery that timed out
  // or crashed reaches the dead-letter queue instead, and this fails its job so it cannot stay running.
  // It shares the worker's bundle but verifies no address, so it gets no side file.
  'dead-letters': {
    description: 'Fails the job of each pipeline message that reached the dead-letter queue',
    timeout: Duration.minutes(1),
  },
  // Also the job watchdog: it re-sends the next steps of jobs that stopped making progress.
  renewals: {
    description: 'Every 5 minutes: community renewals, expiry of grants and quotes, job watchdog, webhook outbox sweep',
    timeout: Duration.minutes(4),
    showsCommunities: true,
  },
  // Queues the removal of members whose captcha timed out; the worker makes the Telegram calls.
  captchas: {
    description: 'Every minute: removes new members whose captcha timed out, lifts Crisp mutes that are over',
    timeout: Duration.seconds(50),
  },
  // Lists the polled platforms' communities and queues them in shards; the worker polls each shard.
  polls: {
    description: 'Every minute: queues the polls of Reddit (and other polled platforms) in shards',
    timeout: Duration.seconds(50),
  },
  // Fans webhook events out and POSTs them: ten records in parallel, each at most the 15 s receiver
  // timeout plus a few reads and writes. The webhook queue's visibility timeout is derived from this.
  'webhook-sender': {
    description: 'Outbound webhooks: fan-out and signed delivery attempts (SQS batches)',
    timeout: Duration.minutes(1),
    showsCommunities: true,
  },
  // Downloads a few hundred kilobytes and writes some 70 items; carries the package's copy of the
  // list as its fallback, which no other function bundles.
  'phishing-refresh': {
    description: 'Every 6 hours: downloads the known-phishing-domain list into the table',
    timeout: Duration.minutes(2),
    memorySize: 512,
  },
};

function needsFrom(name: FunctionName): FunctionNeeds {
  const wiring = FUNCTION_WIRING[name];
  const wired = (port: PortName) => (wiring.ports as readonly PortName[]).includes(port);
  const secrets = wiringOf(name).secrets ?? [];
  return {
    ...DEPLOYMENTS[name],
    table: wiring.table,
    queue: wired('queue'),
    webhookQueue: wired('webhookQueue'),
    events: wired('events'),
    stripe: wired('payments') || secrets.includes('stripe'),
    platformSecret: secrets.includes('platforms'),
    providerSecret: secrets.includes('providers'),
    tokenKey: wired('encryption'),
  };
}

/**
 * Every Lambda, one per folder in functions/ (or an export of one), with its wiring's access. A new
 * function gets a compile error here and in the wiring table until it says what it needs.
 */
export const FUNCTIONS = Object.fromEntries(
  (Object.keys(DEPLOYMENTS) as FunctionName[]).map((name) => [name, needsFrom(name)]),
) as Record<FunctionName, FunctionNeeds>;

/** The stated timeout of a function a queue's visibility timeout is derived from; stating none fails the synth. */
export function timeoutOf(name: FunctionName): Duration {
  const { timeout } = needsOf(name);
  if (!timeout)
    throw new Error(`infra/functionCatalog.ts: function "${name}" feeds a queue and must state its timeout`);
  return timeout;
}

export function needsOf(name: string): FunctionNeeds {
  const needs = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name as FunctionName] : undefined;
  if (!needs)
    throw new Error(
      `infra/functionCatalog.ts has no entry for function "${name}": say what it needs before it can be deployed`,
    );
  return needs;
}
