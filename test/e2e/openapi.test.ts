import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { allEndpoints } from '#shared/schemas/groups';
import { startTestApi } from '#test/support/api';

const api = await startTestApi();

describe('GET /openapi.json', () => {
  it('is a public OpenAPI 3.1 document listing every endpoint the API serves', async () => {
    const res = await api.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const documented = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
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
    expect(doc.paths['/api/v1/chats'].post.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key')).toBe(
      true,
    );
  });
});

describe('the OpenAPI document tells what the server does', () => {
  const docP = api.call('GET', '/openapi.json').then((r) => r.body);
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  const bodySchema = async (path: string, method: string) => {
    const doc = await docP;
    return { ...doc.paths[path][method].requestBody.content['application/json'].schema, components: doc.components };
  };

  it('declares both media types of the exports, JSON first (the default)', async () => {
    const doc = await docP;
    for (const path of ['/api/v1/bd/jobs/{job_id}/export', '/api/v1/growth/runs/{run_id}/export']) {
      const content = doc.paths[path].get.responses['200'].content;
      expect(Object.keys(content)).toEqual(['application/json', 'text/csv']);
      expect(content['application/json'].schema.properties.rows.type).toBe('array');
    }
  });

  it('declares the SSE 406, its event names and the schema of their data', async () => {
    const doc = await docP;
    const op = doc.paths['/api/v1/bd/jobs/{job_id}/events'].get;
    expect(op.responses['406'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    const events = op.responses['200'].content['text/event-stream']['x-sse-events'];
    expect(Object.keys(events).sort()).toEqual(['complete', 'progress']);
    expect(events.progress).toEqual({ $ref: '#/components/schemas/JobEvent' });
    expect(doc.components.schemas.JobEvent.required).toEqual(
      expect.arrayContaining(['job_id', 'status', 'progress_percent']),
    );
  });

  it('lists the webhook signature headers as required header parameters', async () => {
    const doc = await docP;
    const stripe = doc.paths['/api/v1/webhooks/stripe'].post.parameters;
    expect(stripe).toContainEqual(expect.objectContaining({ name: 'Stripe-Signature', in: 'header', required: true }));
    const telegram = doc.paths['/api/v1/integrations/moderation/telegram/{moderation_id}'].post.parameters;
    expect(telegram).toContainEqual(
      expect.objectContaining({ name: 'X-Telegram-Bot-Api-Secret-Token', in: 'header', required: true }),
    );
  });

  it('gives the Idempotency-Key pattern the server enforces', async () => {
    const doc = await docP;
    const param = doc.paths['/api/v1/chats'].post.parameters.find(
      (p: { name: string }) => p.name === 'Idempotency-Key',
    );
    const documented = new RegExp(param.schema.pattern, 'u');
    const { key } = await api.newUser();
    for (const candidate of ['retry-1', 'a b', 'x'.repeat(256), 'é']) {
      const res = await api.call('POST', '/chats', { key, body: {}, headers: { 'idempotency-key': candidate } });
      expect(documented.test(candidate), candidate).toBe(res.status === 201);
    }
  });

  it('states the cross-field rules in the schema: preset xor requested_capabilities, a company needs a website or domain', async () => {
    const validate = ajv.compile(await bodySchema('/api/v1/bd/jobs', 'post'));
    const companies = [{ company_name: 'Acme', domain: 'acme.io' }];
    expect(validate({ preset: 'full_pipeline', input_assets: { companies } })).toBe(true);
    expect(validate({ requested_capabilities: ['qualification'], input_assets: { companies } })).toBe(true);
    expect(
      validate({ preset: 'full_pipeline', requested_capabilities: ['qualification'], input_assets: { companies } }),
    ).toBe(false);
    expect(validate({ input_assets: { companies } })).toBe(false);
    expect(validate({ preset: 'full_pipeline', input_assets: { companies: [{ company_name: 'Acme' }] } })).toBe(false);
    const chat = ajv.compile(await bodySchema('/api/v1/chats/{chat_id}', 'put'));
    expect(chat({})).toBe(false);
    expect(chat({ title: 'x' })).toBe(true);
  });

  it('marks dates as format: date', async () => {
    const doc = await docP;
    expect(doc.components.schemas.CreditUsage.properties.start_date.format).toBe('date');
    const query = doc.paths['/api/v1/credits/usage'].get.parameters.find(
      (p: { name: string }) => p.name === 'start_date',
    );
    expect(query.schema.format).toBe('date');
  });

  it('declares per operation only the errors it can answer, and tags and describes every operation', async () => {
    const doc = await docP;
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses);
    // Any request can be malformed HTTP (400) or carry headers over the limit (431), whatever the operation.
    expect(statuses('/api/v1/health', 'get')).toEqual(['200', '400', '429', '431', '500']);
    expect(statuses('/api/v1/bd/jobs', 'post')).toEqual(expect.arrayContaining(['400', '401', '402', '403', '409']));
    expect(statuses('/api/v1/chats', 'get')).not.toContain('402');
    expect(statuses('/api/v1/chats', 'get')).not.toContain('403');
    expect(statuses('/api/v1/intelligence/execute', 'post')).toEqual(
      expect.arrayContaining(['402', '409', '410', '422']),
    );
    for (const ops of Object.values(
      doc.paths as Record<string, Record<string, { tags: string[]; description: string }>>,
    )) {
      for (const op of Object.values(ops)) {
        expect(op.tags.length).toBeGreaterThan(0);
        expect(op.description.length).toBeGreaterThan(10);
      }
    }
  });
});
