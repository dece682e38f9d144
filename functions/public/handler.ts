import { createApiHandler } from '#shared/http/api';
import { buildOpenApi } from '#shared/http/openapi';
import { publicEndpoints as E } from '#shared/schemas/public';
import { allEndpoints } from '#shared/schemas/groups';

/** Built once per server URL: the URL is the service's own (configured or API Gateway's), so a few at most. */
const documents = new Map<string, Record<string, unknown>>();
function openApiFor(baseUrl: string): Record<string, unknown> {
  const server = baseUrl.replace(/\/api\/v1$/, '');
  let document = documents.get(server);
  if (!document) documents.set(server, (document = buildOpenApi(allEndpoints(), server)));
  return document;
}

export const handler = createApiHandler(E, {
  health: async () => ({ status: 'ok' as const, time: new Date().toISOString() }),
  openapi: async ({ baseUrl }) => openApiFor(baseUrl),
});
