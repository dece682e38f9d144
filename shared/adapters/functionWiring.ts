import type { ApiGroup } from '#shared/schemas/groups';
import type { Ports } from './ports';

export type FunctionName =
  | ApiGroup
  | 'authorizer'
  | 'jobs-events'
  | 'worker'
  | 'dead-letters'
  | 'renewals'
  | 'captchas'
  | 'polls'
  | 'webhook-sender';

/** The ports a function may be given; the clock is everywhere and needs nothing. */
export type PortName = Exclude<keyof Ports, 'clock'>;

export interface FunctionWiring {
  /** Table access: `read` for functions that only look things up. */
  table: 'none' | 'read' | 'readWrite';
  /**
   * The ports its code reaches, and no others: its handler installs exactly these (a compile error
   * otherwise), the stack gives each one's configuration and grant (queue: PIPELINE_QUEUE_URL and
   * send; webhookQueue: WEBHOOK_QUEUE_URL and send; events: EVENT_BUS_NAME and put; secrets: the
   * platform secret, its extension and read; payments: the Stripe settings), and the local runtime
   * refuses the others to it, as Lambda would.
   */
  ports: readonly PortName[];
  /** Reads the Stripe settings without taking payments (verifying Stripe's webhooks). */
  stripe?: true;
}

/**
 * What each function is wired to, stated once: its handler, the stack (infra/functionCatalog.ts,
 * infra/stack.ts) and the local runtime all read this table.
 */
export const FUNCTION_WIRING = {
  public: { table: 'none', ports: [] },
  webhooks: { table: 'readWrite', ports: [], stripe: true },
  account: { table: 'readWrite', ports: ['payments'] },
  storage: { table: 'readWrite', ports: [] },
  // A spend that takes the balance under the threshold announces credits.low on the webhook queue.
  intelligence: { table: 'readWrite', ports: ['webhookQueue'] },
  growth: { table: 'readWrite', ports: ['queue', 'events', 'webhookQueue'] },
  jobs: { table: 'readWrite', ports: ['queue', 'events', 'webhookQueue'] },
  // The Telegram webhook and Discord interactions verify with the platform secret and queue platform calls.
  // The X callback seals the tokens it is given; a sync poll opens and refreshes them.
  moderation: { table: 'readWrite', ports: ['queue', 'events', 'webhookQueue', 'secrets', 'encryption'] },
  // Checks a new endpoint's address as deliveries will.
  outbound: { table: 'readWrite', ports: ['webhookQueue', 'hostResolver'] },
  // Runs the tools' routes in process through their own handlers (each fenced to its own ports): the
  // ports those routes reach, no Stripe (no tool starts a checkout) and no platform secret.
  mcp: { table: 'readWrite', ports: ['queue', 'events', 'webhookQueue'] },
  authorizer: { table: 'read', ports: [] },
  'jobs-events': { table: 'read', ports: [] },
  // E-mail verification looks up mail exchangers; platform calls read the platform secret.
  worker: { table: 'readWrite', ports: ['queue', 'events', 'webhookQueue', 'secrets', 'dns', 'encryption'] },
  // No webhook queue: the jobs it fails announce their events through the outbox sweep instead.
  'dead-letters': { table: 'readWrite', ports: ['events'] },
  renewals: { table: 'readWrite', ports: ['queue', 'events', 'webhookQueue'] },
  captchas: { table: 'readWrite', ports: ['queue'] },
  // Lists the polled platforms' bound communities and queues their polls in shards.
  polls: { table: 'read', ports: ['queue'] },
  'webhook-sender': { table: 'readWrite', ports: ['webhookQueue', 'hostResolver'] },
} as const satisfies Record<FunctionName, FunctionWiring>;

export type PortsOf<F extends FunctionName> = (typeof FUNCTION_WIRING)[F]['ports'][number];

export const wiringOf = (name: FunctionName): FunctionWiring => FUNCTION_WIRING[name];
