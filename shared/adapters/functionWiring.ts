import type { RequiredSetting } from '#shared/config/config';
import type { Ports } from './ports';
import type { SecretName } from './secretsPort';

/**
 * The functions that serve the HTTP API, one per endpoint group: the group table
 * (shared/schemas/groups.ts) lists each one's endpoint specs and must name exactly these.
 */
export type ApiGroup =
  | 'public'
  | 'webhooks'
  | 'account'
  | 'storage'
  | 'intelligence'
  | 'growth'
  | 'jobs'
  | 'moderation'
  | 'outbound'
  | 'mcp';

export type FunctionName =
  | ApiGroup
  | 'authorizer'
  | 'jobs-events'
  | 'worker'
  | 'dead-letters'
  | 'renewals'
  | 'captchas'
  | 'polls'
  | 'webhook-sender'
  | 'phishing-refresh';

/** The ports a function may be given; the clock is everywhere and needs nothing. */
export type PortName = Exclude<keyof Ports, 'clock'>;

export interface FunctionWiring {
  /** Table access: `read` for functions that only look things up. */
  table: 'none' | 'read' | 'readWrite';
  /**
   * The ports its code reaches, and no others: its handler installs exactly these (a compile error
   * otherwise), the stack gives each one's configuration and grant (queue: PIPELINE_QUEUE_URL and
   * send; webhookQueue: WEBHOOK_QUEUE_URL and send; events: EVENT_BUS_NAME and put; secrets: the
   * secrets below; payments: the Stripe prices), and the local runtime refuses the others to it, as
   * Lambda would.
   */
  ports: readonly PortName[];
  /**
   * With the `secrets` port, which secrets it reads: the stack passes each one's id and grants its
   * read (platforms: PLATFORM_SECRET_ARN; stripe: STRIPE_SECRET_NAME and the Stripe settings), and
   * the secrets port refuses the others to it. A test checks `secrets` is given exactly with that port.
   */
  secrets?: readonly SecretName[];
}

/**
 * What each function is wired to, stated once: its handler, the stack (infra/functionCatalog.ts,
 * infra/stack.ts) and the local runtime all read this table.
 */
export const FUNCTION_WIRING = {
  public: { table: 'none', ports: [] },
  // Verifies Stripe's webhooks with the Stripe webhook secret; asks Stripe for a new subscription's period and
  // cancels one the account does not use.
  webhooks: { table: 'readWrite', ports: ['payments', 'secrets'], secrets: ['stripe'] },
  account: { table: 'readWrite', ports: ['payments', 'secrets'], secrets: ['stripe'] },
  storage: { table: 'readWrite', ports: [] },
  // A spend that takes the balance under the threshold announces credits.low on the webhook queue.
  intelligence: { table: 'readWrite', ports: ['webhookQueue'] },
  growth: { table: 'readWrite', ports: ['queue', 'webhookQueue'] },
  jobs: { table: 'readWrite', ports: ['queue', 'webhookQueue'] },
  // The Telegram webhook and Discord interactions verify with the platform secret and queue platform calls.
  // The X callback seals the tokens it is given; a sync poll opens and refreshes them.
  moderation: {
    table: 'readWrite',
    ports: ['queue', 'webhookQueue', 'secrets', 'encryption'],
    secrets: ['platforms'],
  },
  // Checks a new endpoint's address as deliveries will; seals the signing secrets it makes (and their replays).
  outbound: { table: 'readWrite', ports: ['webhookQueue', 'hostResolver', 'encryption'] },
  // Runs the tools' routes in process through their own handlers (each fenced to its own ports): the
  // ports those routes reach, no Stripe (no tool starts a checkout) and no platform secret.
  mcp: { table: 'readWrite', ports: ['queue', 'webhookQueue'] },
  authorizer: { table: 'read', ports: [] },
  'jobs-events': { table: 'read', ports: [] },
  // E-mail verification looks up mail exchangers; platform calls read the platform secret; the
  // enrichment stages read the outside data providers' keys.
  worker: {
    table: 'readWrite',
    ports: ['queue', 'webhookQueue', 'secrets', 'dns', 'encryption'],
    secrets: ['platforms', 'providers'],
  },
  // No webhook queue: the jobs it fails announce their events through the outbox sweep instead.
  'dead-letters': { table: 'readWrite', ports: [] },
  // The outbox sweep dispatches events the fast path missed, publishing bus events as the sender does.
  renewals: { table: 'readWrite', ports: ['queue', 'events', 'webhookQueue'] },
  captchas: { table: 'readWrite', ports: ['queue'] },
  // Lists the polled platforms' bound communities and queues their polls in shards.
  polls: { table: 'read', ports: ['queue'] },
  // Dispatching an outbox event publishes its bus detail: the only publisher besides the renewals' sweep.
  // It opens an endpoint's sealed secret to sign a delivery.
  'webhook-sender': { table: 'readWrite', ports: ['webhookQueue', 'events', 'hostResolver', 'encryption'] },
  // Downloads the phishing list from the operator's configured URL (not a caller's) and writes it.
  'phishing-refresh': { table: 'readWrite', ports: [] },
} as const satisfies Record<FunctionName, FunctionWiring>;

/**
 * The settings each port's AWS implementation cannot run without (the stack sets them beside the
 * port's grant). The events port is the outbox's dispatch, which also renders the events' data, and
 * that links to the API (a growth run's export URLs): so it needs the API's address.
 */
export const PORT_SETTINGS: Partial<Record<PortName, readonly RequiredSetting[]>> = {
  queue: ['PIPELINE_QUEUE_URL'],
  webhookQueue: ['WEBHOOK_QUEUE_URL'],
  events: ['EVENT_BUS_NAME', 'PUBLIC_BASE_URL'],
  encryption: ['TOKEN_KEY_ARN'],
};

/** What a function's Lambda must be configured with: checked at its cold start (withPorts), set by the stack. */
export function requiredSettingsOf(name: FunctionName): RequiredSetting[] {
  const wiring = wiringOf(name);
  const fromPorts = wiring.ports.flatMap((port) => PORT_SETTINGS[port] ?? []);
  return [...(wiring.table === 'none' ? [] : (['TABLE_NAME'] as const)), ...fromPorts];
}

export type PortsOf<F extends FunctionName> = (typeof FUNCTION_WIRING)[F]['ports'][number];

export const wiringOf = (name: FunctionName): FunctionWiring => FUNCTION_WIRING[name];
