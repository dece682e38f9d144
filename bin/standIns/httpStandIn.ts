import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface StandInAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A tiny JSON HTTP server on a free port; `answer` decides each response. */
export async function startJsonServer(answer: (req: StandInRequest) => StandInAnswer | Promise<StandInAnswer>) {
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      const out = await answer({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      });
      res.writeHead(out.status, {
        ...(out.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(out.headers ?? {}),
      });
      res.end(out.body === undefined ? '' : JSON.stringify(out.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
