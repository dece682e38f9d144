import { Duration } from 'aws-cdk-lib';
import { DISPOSABLE_DOMAINS_FILE } from '#shared/domain/jobs/disposableDomainsCodec';
import type { ApiGroup } from '#shared/schemas/groups';

/** The disposable-domain list (bin/generateDisposableDomains.ts), read by the e-mail verification stage. */
export const DISPOSABLE_DOMAINS_SIDE_FILE = `shared/domain/jobs/${DISPOSABLE_DOMAINS_FILE}`;

/** The OpenAPI document built ahead from the schemas (`npm run openapi`), served by the public function. */
export const OPENAPI_SIDE_FILE = 'functions/public/openapi.json';

/** What a function may do beyond writing its own logs: the stack turns this into grants and env. */
export interface FunctionNeeds {
  description: string;
  /** Folder under functions/ when it is not the function's own name, and the export to run. */
  entry?: { folder: string; handler: string };
  /** Table access: `read` for functions that only look things up. */
  table: 'none' | 'read' | 'readWrite';
  /** Sends messages to the pipeline queue (PIPELINE_QUEUE_URL). */
  queue?: boolean;
  /** Sends to the outbound webhook queue (WEBHOOK_QUEUE_URL): emits webhook events or schedules attempts. */
  webhookQueue?: boolean;
  /** Publishes domain events to the bus (EVENT_BUS_NAME). */
  events?: boolean;
  /** Talks to Stripe or verifies its webhooks (STRIPE_* settings). */
  stripe?: boolean;
  /** Reads the operator's platform credentials (Telegram, Discord) from the Secrets Manager secret at run time. */
  platformSecret?: boolean;
  /**
   * Data files (paths from the project root) the function reads at run time from beside its bundle
   * rather than carrying them as code: the stack copies each into the function's asset under its own
   * name (infra/bundling.ts, sideFileHooks).
   */
  sideFiles?: string[];
  timeout?: Duration;
  memorySize?: number;
}

export type FunctionName = ApiGroup | 'authorizer' | 'jobs-events' | 'worker' | 'dead-letters' | 'renewals' | 'captchas' | 'webhook-sender';

/**
 * Every Lambda, one per folder in functions/. A new API group gets a compile error here until it
 * says what it needs (and the stack refuses to synthesize without an entry).
 */
export const FUNCTIONS: Record<FunctionName, FunctionNeeds> = {
  public: { description: 'Health and the OpenAPI document', table: 'none', sideFiles: [OPENAPI_SIDE_FILE] },
  webhooks: { description: 'Stripe webhooks and the local checkout pages', table: 'readWrite', stripe: true },
  account: { description: 'Profile, API key, subscription, checkout and credit usage', table: 'readWrite', stripe: true },
  storage: { description: 'Chats and stored results', table: 'readWrite' },
  intelligence: { description: 'Growth intelligence queries', table: 'readWrite' },
  growth: { description: 'Growth actions', table: 'readWrite', queue: true, events: true, webhookQueue: true },
  jobs: { description: 'Enrichment jobs', table: 'readWrite', queue: true, events: true, webhookQueue: true },
  // The Telegram webhook and Discord interactions verify with the platform secret and queue platform calls.
  moderation: { description: 'Community moderation', table: 'readWrite', events: true, queue: true, platformSecret: true, webhookQueue: true },
  outbound: { description: 'Outbound webhook endpoints and the delivery log', table: 'readWrite', webhookQueue: true },
  // Identifies the caller from the API key hash: a single lookup, nothing written.
  authorizer: { description: 'TOKEN authorizer: bearer API key to user', table: 'read', memorySize: 512, timeout: Duration.seconds(10) },
  // Server-sent events of a job's progress: reads the job until it is terminal. API Gateway allows
  // a streamed response up to 15 minutes; a reconnecting client gets the current state first.
  'jobs-events': { description: 'Job progress as server-sent events (response streaming)', table: 'read', timeout: Duration.minutes(15) },
  // The queue's visibility timeout is derived from this (see pipeline.ts). Its e-mail verification
  // stage reads the disposable-domain list from beside the bundle.
  worker: {
    description: 'Pipeline stage worker and platform moderation calls (SQS batches, partial failures)',
    table: 'readWrite', queue: true, events: true, platformSecret: true, webhookQueue: true, sideFiles: [DISPOSABLE_DOMAINS_SIDE_FILE], timeout: Duration.minutes(2),
  },
  // The worker fails a job itself when a message's last delivery throws; a delivery that timed out
  // or crashed reaches the dead-letter queue instead, and this fails its job so it cannot stay running.
  // It shares the worker's bundle but verifies no address, so it gets no side file.
  'dead-letters': {
    description: 'Fails the job of each pipeline message that reached the dead-letter queue',
    entry: { folder: 'worker', handler: 'deadLetterHandler' },
    // No webhook queue: the jobs it fails announce their events through the outbox sweep instead.
    table: 'readWrite', events: true, timeout: Duration.minutes(1),
  },
  // Also the job watchdog: it re-sends the next steps of jobs that stopped making progress.
  renewals: { description: 'Every 5 minutes: community renewals, expiry of grants and quotes, job watchdog, webhook outbox sweep', table: 'readWrite', queue: true, events: true, webhookQueue: true, timeout: Duration.minutes(4) },
  // Queues the removal of members whose captcha timed out; the worker makes the Telegram calls.
  captchas: { description: 'Every minute: removes new members whose captcha timed out, lifts Crisp mutes that are over', entry: { folder: 'renewals', handler: 'captchaHandler' }, table: 'readWrite', queue: true, timeout: Duration.seconds(50) },
  // Fans webhook events out and POSTs them: ten records in parallel, each at most the 15 s receiver
  // timeout plus a few reads and writes. The webhook queue's visibility timeout is derived from this.
  'webhook-sender': { description: 'Outbound webhooks: fan-out and signed delivery attempts (SQS batches)', table: 'readWrite', webhookQueue: true, timeout: Duration.minutes(1) },
};

export function needsOf(name: string): FunctionNeeds {
  const needs = (FUNCTIONS as Record<string, FunctionNeeds | undefined>)[name];
  if (!needs) throw new Error(`infra/functionCatalog.ts has no entry for function "${name}": say what it needs before it can be deployed`);
  return needs;
}
