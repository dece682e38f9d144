import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '#test/support/contract';
import { WEBHOOK_EVENT_TYPES } from '#shared/schemas/outboundWebhooks';

describe('OpenAPI 3.1 webhooks', () => {
  it('describes every outbound event type with its signed headers and payload', () => {
    expect(Object.keys(openApiDocument.webhooks)).toEqual(WEBHOOK_EVENT_TYPES);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const op = openApiDocument.webhooks[type].post;
      expect(
        op.parameters.map((p: { name: string; in: string; required: boolean }) => [p.name, p.in, p.required]),
      ).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      expect(op.requestBody.content['application/json'].schema.properties.type).toEqual({
        type: 'string',
        const: type,
      });
    }
  });

  it("a job.completed payload's data is the EnrichmentJob schema, and a payload missing data is invalid", () => {
    const schema = openApiDocument.webhooks['job.completed'].post.requestBody.content['application/json'].schema;
    expect(schema.properties.data).toEqual({ $ref: '#/components/schemas/EnrichmentJob' });
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: openApiDocument.components });
    const validate = ajv.compile({
      ...JSON.parse(JSON.stringify(schema).replaceAll('#/components', 'doc#/components')),
    });
    expect(
      validate({
        id: '0190b5c2-1234-7abc-8def-0123456789ab',
        type: 'job.completed',
        created_at: '2026-11-22T06:11:56.123Z',
      }),
    ).toBe(false);
  });

  it('lists the outbound webhook operations under their contract paths', () => {
    for (const [path, method] of [
      ['/api/v1/webhooks/endpoints', 'post'],
      ['/api/v1/webhooks/endpoints', 'get'],
      ['/api/v1/webhooks/endpoints/{endpoint_id}', 'get'],
      ['/api/v1/webhooks/endpoints/{endpoint_id}', 'delete'],
      ['/api/v1/webhooks/endpoints/{endpoint_id}/rotate-secret', 'post'],
      ['/api/v1/webhooks/deliveries', 'get'],
      ['/api/v1/webhooks/deliveries/{delivery_id}/retry', 'post'],
    ]) {
      expect(openApiDocument.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(
      Object.keys(openApiDocument.paths['/api/v1/webhooks/deliveries/{delivery_id}/retry'].post.responses),
    ).toContain('202');
  });
});
