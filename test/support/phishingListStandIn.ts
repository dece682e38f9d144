/**
 * A stand-in for the phishing list's public file (PHISHING_LIST_URL): serves whatever a test scripts
 * (a list in eth-phishing-detect's config.json shape, an error, a broken file) and records each request.
 * Tests serve lists of domains invented here, never entries of the real list.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface InventedList {
  version: number;
  tolerance: number;
  fuzzylist: string[];
  whitelist: string[];
  blacklist: string[];
}

/** A list in the source's shape: `blacklist` padded to `padTo` domains with numbered ones (`lure-N-pad.test`). */
export function inventedList(parts: Partial<InventedList> & { padTo?: number } = {}): InventedList {
  const blacklist = [...(parts.blacklist ?? [])];
  for (let i = 0; blacklist.length < (parts.padTo ?? 0); i++) blacklist.push(`lure-${i}-pad.test`);
  return {
    version: parts.version ?? 2,
    tolerance: parts.tolerance ?? 2,
    fuzzylist: parts.fuzzylist ?? ['acme-swap.test'],
    whitelist: parts.whitelist ?? [],
    blacklist,
  };
}

export async function startPhishingListStandIn() {
  const requests: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];
  let answer: { status: number; body: string; type: string } = { status: 404, body: 'Not Found', type: 'text/plain' };
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers });
    res.writeHead(answer.status, { 'content-type': answer.type });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/src/config.json`;
  return {
    url,
    requests,
    serve: (list: unknown) => {
      answer = { status: 200, body: JSON.stringify(list), type: 'text/plain; charset=utf-8' };
    },
    serveRaw: (status: number, body: string, type = 'text/html') => {
      answer = { status, body, type };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
