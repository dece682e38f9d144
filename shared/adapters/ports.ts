import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from './clock';
import { systemClock } from './clock';
import type { QueuePort } from './queue';
import type { EventsPort } from './domainEvents';
import type { DnsPort } from './dns';
import type { PaymentsPort } from './paymentsPort';
import type { SecretsPort } from './secretsPort';
import type { HostResolver } from './hostResolver';
import type { EncryptionPort } from './encryption';

/**
 * The outside world the application talks to. Each Lambda entry point registers the AWS
 * implementations of the ports its wiring lists (withPorts, shared/adapters/aws.ts) as lazy defaults,
 * built on first use; the local server and the tests install local ones.
 */
export interface Ports {
  clock: Clock;
  queue: QueuePort;
  events: EventsPort;
  dns: DnsPort;
  payments: PaymentsPort;
  secrets: SecretsPort;
  /** Outbound webhook deliveries (their own queue: retries span hours, apart from the job pipeline). */
  webhookQueue: QueuePort;
  /** Host names of webhook endpoints to addresses, checked against the address policy at each delivery. */
  hostResolver: HostResolver;
  /** Seals secrets kept in the table (a platform account's OAuth tokens): KMS in AWS, a key file locally. */
  encryption: EncryptionPort;
}

type Factories = { [K in keyof Ports]?: () => Ports[K] };

const installed: Partial<Ports> = { clock: systemClock };
let defaults: Factories = {};

export function installPorts(next: Partial<Ports>): void {
  Object.assign(installed, next);
}

export function setDefaultPorts(factories: Factories): void {
  defaults = { ...defaults, ...factories };
}

/**
 * The function whose invocation is running and the ports its wiring gives it: the local runtime runs
 * every function in one process with every port installed, so each invocation is fenced to its own,
 * and code reaching another port fails here as it would in that function's Lambda.
 */
const fence = new AsyncLocalStorage<{ name: string; ports: ReadonlySet<keyof Ports> }>();

/** The function whose invocation is running (a Lambda entry point or the local runtime's fence), if any. */
export const runningFunction = (): string | undefined => fence.getStore()?.name;

export function runFenced<T>(name: string, allowed: readonly (keyof Ports)[], work: () => T): T {
  return fence.run({ name, ports: new Set<keyof Ports>(['clock', ...allowed]) }, work);
}

function resolve<K extends keyof Ports>(name: K): Ports[K] {
  const running = fence.getStore();
  if (running && !running.ports.has(name)) {
    throw new Error(
      `Port ${name} is not installed: function ${running.name} is not wired to it (shared/adapters/functionWiring.ts)`,
    );
  }
  const existing = installed[name];
  if (existing) return existing as Ports[K];
  const factory = defaults[name];
  if (!factory) throw new Error(`Port ${name} is not installed`);
  const built = factory();
  installed[name] = built;
  return built;
}

const view: Ports = {
  get clock() {
    return resolve('clock');
  },
  get queue() {
    return resolve('queue');
  },
  get events() {
    return resolve('events');
  },
  get dns() {
    return resolve('dns');
  },
  get payments() {
    return resolve('payments');
  },
  get secrets() {
    return resolve('secrets');
  },
  get webhookQueue() {
    return resolve('webhookQueue');
  },
  get hostResolver() {
    return resolve('hostResolver');
  },
  get encryption() {
    return resolve('encryption');
  },
};

export const ports = (): Ports => view;
export const now = (): Date => resolve('clock').now();
