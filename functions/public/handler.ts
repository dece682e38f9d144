import { withPorts } from '#shared/adapters/aws';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiHandler } from '#shared/http/api';
import { HttpResponse } from '#shared/http/response';
import { publicEndpoints as E } from '#shared/schemas/public';

/**
 * The OpenAPI document is built ahead from the zod schemas (`npm run openapi`, checked up to date by
 * test/http/openApiFile.test.ts) and shipped beside this function (catalogue sideFiles), so the
 * function carries neither every endpoint's schema nor zod's JSON Schema generator, and its first
 * answer parses a file instead of building the document. Only `servers` is filled in here.
 */
let built: Record<string, unknown> | undefined;
const documents = new Map<string, Record<string, unknown>>();
function openApiFor(baseUrl: string): Record<string, unknown> {
  const server = baseUrl.replace(/\/api\/v1$/, '');
  let document = documents.get(server);
  if (!document) {
    built ??= JSON.parse(readFileSync(join(import.meta.dirname, 'openapi.json'), 'utf8')) as Record<string, unknown>;
    // The server URL is the service's own (configured or API Gateway's), so a few at most.
    documents.set(server, (document = { ...built, servers: [{ url: server }] }));
  }
  return document;
}

/**
 * The console runs only its own script (no inline script, nothing from another origin) and talks
 * only to this API, so a page that somehow showed hostile text could neither run it nor send the
 * pasted key anywhere else. Styles are a file too: Preact sets the few computed sizes through the
 * CSSOM, which a CSP does not restrict.
 */
const CONSOLE_HEADERS = {
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

// Relative addresses: the page is /api/v1/console (behind a stage prefix in API Gateway), so
// `console/…` is its own assets and the script finds the API at `./`.
const CONSOLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Console</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%230a58ca'/%3E%3C/svg%3E">
<link rel="stylesheet" href="console/console.css">
<script type="module" src="console/console.js"></script>
</head>
<body>
<div id="app"><noscript>The console needs JavaScript.</noscript></div>
</body>
</html>
`;

/** The built files beside the bundle, read once per container. */
const assets = new Map<string, string>();
const asset = (name: string) => {
  let text = assets.get(name);
  if (text === undefined) assets.set(name, (text = readFileSync(join(import.meta.dirname, name), 'utf8')));
  return text;
};

const consoleFile = (body: string, contentType: string) => new HttpResponse(200, body, CONSOLE_HEADERS, contentType);

export const handler = withPorts('public', {}, createApiHandler(E, {
  health: async () => ({ status: 'ok' as const, time: new Date().toISOString() }),
  openapi: async ({ baseUrl }) => openApiFor(baseUrl),
  console: async () => consoleFile(CONSOLE_PAGE, 'text/html; charset=utf-8'),
  consoleScript: async () => consoleFile(asset('console.js'), 'text/javascript; charset=utf-8'),
  consoleStyles: async () => consoleFile(asset('console.css'), 'text/css; charset=utf-8'),
}));
