import { createApiHandler, route } from '../../shared/http/api';
import { buildOpenApi } from '../../shared/http/openapi';
import { publicEndpoints as E } from '../../shared/schemas/public';
import { allEndpoints } from '../../shared/schemas/groups';

let document: Record<string, unknown> | undefined;

export const handler = createApiHandler([
  route(E.health, async () => ({ status: 'ok', time: new Date().toISOString() })),
  route(E.openapi, async ({ baseUrl }) => (document ??= buildOpenApi(allEndpoints(), baseUrl.replace(/\/api\/v1$/, '')))),
]);
