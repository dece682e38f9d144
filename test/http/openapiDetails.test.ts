import { describe, expect, it } from 'vitest';
import { openApiDocument } from '#test/support/contract';

/** Rules the service enforces that the OpenAPI document states. */
describe('the OpenAPI document states', () => {
  const doc = openApiDocument;
  it('that empty query values are taken as absent, and that free text is trimmed before its length is checked', () => {
    expect(doc.info.description).toContain('`?limit=`) is taken as absent');
    expect(doc.info.description).toContain('white space removed before their length limits are checked');
  });

  it('the 366-day cap of /credits/usage', () => {
    expect(doc.paths['/api/v1/credits/usage'].get.description).toContain('at most 366 days');
  });

  it('that a webhook URL is an absolute https URL (format uri)', () => {
    const body = doc.paths['/api/v1/webhooks/endpoints'].post.requestBody.content['application/json'].schema;
    const schema = body.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body;
    expect(schema.properties.url).toMatchObject({ format: 'uri', description: expect.stringContaining('https only') });
  });

  it('the Idempotent-Replayed header on every operation that honours Idempotency-Key, and only there', () => {
    let idempotent = 0;
    for (const methods of Object.values(doc.paths) as Record<string, any>[]) {
      for (const op of Object.values(methods)) {
        const honours = (op.parameters ?? []).some((p: { name: string }) => p.name === 'Idempotency-Key');
        const success = Object.entries(op.responses).find(([code]) => code.startsWith('2'))![1] as {
          headers?: Record<string, unknown>;
        };
        expect(Object.keys(success.headers ?? {}).includes('Idempotent-Replayed'), op.operationId).toBe(honours);
        if (honours) idempotent++;
      }
    }
    expect(idempotent).toBeGreaterThan(5);
  });

  it('the e-mail local-part limit of PATCH /users/me', () => {
    const body = doc.paths['/api/v1/users/me'].patch.requestBody.content['application/json'].schema;
    const schema = body.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body;
    expect(JSON.stringify(schema.properties.email)).toContain('at most 64 before the @');
  });
});
