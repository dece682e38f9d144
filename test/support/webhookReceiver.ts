import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The parsed payload when the library's verifier accepted the signature, else null. */
  verified: { id: string; type: string; created_at: string; data: any } | null;
  status: number;
}

/**
 * A customer's receiver stand-in: it checks every request with the Standard Webhooks library's own
 * verifier (with the secret a test registers for its path) and answers with what the test scripts,
 * 204 by default, so a test can make it fail and then recover.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly scripts = new Map<string, number[]>();
  private server: Server | undefined;
  private waiters: { test: () => boolean; resolve: () => void }[] = [];
  origin = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        let verified: ReceivedWebhook['verified'] = null;
        try {
          const secret = this.secrets.get(path);
          if (secret) verified = new Webhook(secret).verify(body, headers) as ReceivedWebhook['verified'];
        } catch {
          verified = null;
        }
        const status = this.scripts.get(path)?.shift() ?? 204;
        this.received.push({ path, headers, body, verified, status });
        res.writeHead(status).end();
        for (const w of this.waiters.filter((w) => w.test())) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve();
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The URL of a path on this receiver, verifying with `secret` once the test knows it. */
  url(path: string): string {
    return `${this.origin}${path}`;
  }

  expectSecret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** The next answers of a path, in order (then 204 again). */
  answer(path: string, ...statuses: number[]): void {
    this.scripts.set(path, statuses);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Resolves once `count` requests reached `path` (rejects after `timeoutMs`). */
  async waitFor(path: string, count: number, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
    if (this.at(path).length < count) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${path} got ${this.at(path).length} of ${count} webhooks`)),
          timeoutMs,
        );
        this.waiters.push({
          test: () => this.at(path).length >= count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    }
    return this.at(path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }
}
