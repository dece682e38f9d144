import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { postWebhook } from '#shared/adapters/webhookSender';

const hits: string[] = [];
let behaviour: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
const server = createServer((req, res) => {
  hits.push(req.url ?? '');
  behaviour(req, res);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const send = (path: string, timeoutMs = 2000) =>
  postWebhook({
    url: `${base}${path}`,
    addresses: ['127.0.0.1'],
    headers: { 'webhook-id': 'evt_1' },
    body: '{"a":1}',
    timeoutMs,
  });

describe('postWebhook', () => {
  it('a 2xx is a success and the signed headers and body arrive', async () => {
    let seen: { id?: string; body?: string; type?: string } = {};
    behaviour = (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen = { id: req.headers['webhook-id'] as string, body, type: req.headers['content-type'] };
        res.writeHead(204).end();
      });
    };
    expect(await send('/ok')).toMatchObject({ ok: true, statusCode: 204, error: null });
    expect(seen).toEqual({ id: 'evt_1', body: '{"a":1}', type: 'application/json' });
  });

  it('does not follow a redirect: a 3xx is a failed attempt and the target is never called', async () => {
    behaviour = (req, res) =>
      req.url === '/moved' ? res.writeHead(307, { location: `${base}/target` }).end() : res.end();
    hits.length = 0;
    expect(await send('/moved')).toMatchObject({ ok: false, statusCode: 307 });
    expect(hits).toEqual(['/moved']);
  });

  it('a 5xx is a failed attempt with its status code', async () => {
    behaviour = (_req, res) => res.writeHead(503).end('down');
    expect(await send('/down')).toMatchObject({ ok: false, statusCode: 503, error: 'HTTP 503' });
  });

  it('gives up after the timeout with no status code', async () => {
    behaviour = () => undefined; // never answers
    const result = await send('/slow', 300);
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'timeout after 300 ms' });
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('a refused connection is a failed attempt, not a throw', async () => {
    const result = await postWebhook({
      url: 'http://127.0.0.1:1/x',
      addresses: ['127.0.0.1'],
      headers: {},
      body: '{}',
      timeoutMs: 1000,
    });
    expect(result).toMatchObject({ ok: false, statusCode: null });
  });

  // The DNS-rebinding window: the connection goes to the addresses the policy checked, never
  // to a second DNS answer.
  const port = (server.address() as AddressInfo).port;

  it('connects to the checked address without asking DNS again (a name DNS does not know still arrives)', async () => {
    let host: string | undefined;
    behaviour = (req, res) => {
      host = req.headers.host;
      res.writeHead(200).end();
    };
    const result = await postWebhook({
      url: `http://receiver.rebinding.invalid:${port}/hook`,
      addresses: ['127.0.0.1'],
      headers: {},
      body: '{}',
      timeoutMs: 2000,
    });
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(host).toBe(`receiver.rebinding.invalid:${port}`);
  });

  it('does not follow what DNS answers now: localhost checked as another address never reaches the receiver on 127.0.0.1', async () => {
    hits.length = 0;
    const result = await postWebhook({
      url: `http://localhost:${port}/hook`,
      addresses: ['127.0.0.2'],
      headers: {},
      body: '{}',
      timeoutMs: 2000,
    });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'ECONNREFUSED' });
    expect(hits).toEqual([]);
  });
});
