import type { Server } from 'node:http';
import { afterAll } from 'vitest';
import { type ManualClock, systemClock, type Clock } from '#shared/adapters/clock';
import { createAccount } from '#shared/domain/accounts/accounts';
import type { Tier, UserRecord } from '#shared/store/usersRepo';
import { installLocalPorts, type LocalPorts } from '#bin/local/runtime';
import { createLocalApi, listen } from '#bin/local/server';
import { uuidv7 } from '#shared/ids';
import { contractViolation } from './contract';

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as is (for malformed JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface TestApi {
  baseUrl: string;
  origin: string;
  ports: LocalPorts;
  clock: Clock;
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<CallResult<T>>;
  newUser(options?: { tier?: Tier; credits?: number; email?: string }): Promise<{ user: UserRecord; key: string }>;
}

/**
 * Starts the local API (the same server `npm start` runs) on a free port for one test file, against
 * the shared DynamoDB Local, with in-process ports. Closed after the file's tests.
 */
export async function startTestApi(options: { clock?: ManualClock } = {}): Promise<TestApi> {
  const clock = options.clock ?? systemClock;
  const ports = installLocalPorts(clock, { realDns: false });
  const server: Server = createLocalApi();
  // Clients and server share this process's event loop: after a long synchronous stretch (compiling schemas on a
  // loaded machine) the server's 5 s idle timer and a client's reuse of the same socket can fire in the same turn,
  // and the request dies with ECONNRESET. No test pauses for a minute.
  server.keepAliveTimeout = 60_000;
  const port = await listen(server, 0);
  const origin = `http://127.0.0.1:${port}`;
  afterAll(async () => {
    ports.queue.stop();
    ports.webhookQueue.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    baseUrl: `${origin}/api/v1`,
    origin,
    ports,
    clock,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      let body: string | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const url = path.startsWith('http') ? path : `${origin}${path.startsWith('/api/') ? '' : '/api/v1'}${path}`;
      const response = await fetch(url, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON: keep the text */
      }
      // Every answer the suites see is checked against the published document: a drift fails the test.
      const target = new URL(url);
      if (target.origin === origin && target.pathname.startsWith('/api/v1/')) {
        const violation = contractViolation(
          method,
          target.pathname,
          response.status,
          response.headers.get('content-type'),
          text,
        );
        if (violation) throw new Error(`Response breaks the OpenAPI document: ${violation}`);
      }
      return { status: response.status, body: parsed as any, text, headers: response.headers };
    },
    async newUser({ tier = 'developer', credits = 0, email } = {}) {
      const { user, apiKey } = await createAccount({ email: email ?? `user-${uuidv7()}@example.com`, tier, credits });
      return { user, key: apiKey };
    },
  };
}
