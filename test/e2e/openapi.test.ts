import { describe, expect, it } from 'vitest';
import { allEndpoints } from '../../shared/schemas/groups';
import { startTestApi } from '../support/api';

const api = await startTestApi();

describe('GET /openapi.json', () => {
  it('is a public OpenAPI 3.1 document listing every endpoint the API serves', async () => {
    const res = await api.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const documented = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const served = allEndpoints().map((e) => `${e.method} ${e.path}`);
    expect(documented.sort()).toEqual(served.sort());
    expect(new Set(allEndpoints().map((e) => e.operationId)).size).toBe(served.length);
  });

  it('documents request bodies, query parameters, security and the error body from the zod schemas', async () => {
    const doc = (await api.call('GET', '/openapi.json')).body;
    const patchMe = doc.paths['/api/v1/users/me'].patch;
    expect(patchMe.requestBody.content['application/json'].schema.properties.full_name).toBeDefined();
    expect(patchMe.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
    expect(patchMe.responses['409']).toBeDefined();
    const listChats = doc.paths['/api/v1/chats'].get;
    const limit = listChats.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { minimum: 1, maximum: 100, default: 50 } });
    expect(doc.paths['/api/v1/health'].get.security).toEqual([]);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.ErrorBody.properties.request_id).toBeDefined();
    expect(doc.paths['/api/v1/chats'].post.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key')).toBe(true);
  });
});
