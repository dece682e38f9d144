import { withPorts } from '#shared/adapters/aws';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiHandler } from '#shared/http/api';
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

export const handler = withPorts('public', {}, createApiHandler(E, {
  health: async () => ({ status: 'ok' as const, time: new Date().toISOString() }),
  openapi: async ({ baseUrl }) => openApiFor(baseUrl),
}));
