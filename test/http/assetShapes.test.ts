import { describe, expect, it } from 'vitest';
import { ASSET_FIELD_LIMITS, companyFields, contactFields, icpConfigSchema } from '#shared/domain/jobs/assets';
import { normalizeLinkedinUrl } from '#shared/domain/growth/normalize';
import { buildOpenApi } from '#shared/http/openapi';
import { allEndpoints } from '#shared/schemas/groups';

type Node = { properties?: Record<string, Node>; type?: string; maxLength?: number; [k: string]: unknown };

/** Every object schema in the document, wherever it sits (request bodies, responses, components). */
function objectSchemas(node: unknown, into: Node[] = []): Node[] {
  if (Array.isArray(node)) for (const item of node) objectSchemas(item, into);
  else if (node && typeof node === 'object') {
    if ((node as Node).properties) into.push(node as Node);
    for (const value of Object.values(node)) objectSchemas(value, into);
  }
  return into;
}

const sameKeys = (node: Node, keys: string[]) => {
  const own = Object.keys(node.properties ?? {}).sort();
  return own.length === keys.length && own.every((k, i) => k === [...keys].sort()[i]);
};

describe('the input assets and ICP criteria, one shape across jobs, growth requests and the growth plan', () => {
  const document = buildOpenApi(allEndpoints());
  const nodes = objectSchemas(document);

  it('every company and contact asset in the OpenAPI document has the same limits, those of ASSET_FIELD_LIMITS', () => {
    const assets = nodes.filter(
      (n) => sameKeys(n, Object.keys(contactFields('kept'))) || sameKeys(n, Object.keys(companyFields('kept'))),
    );
    // POST /bd/jobs, the growth resolve request, and the plan's normalised assets: contacts and companies of each.
    expect(assets.length).toBeGreaterThanOrEqual(6);
    for (const asset of assets) {
      for (const [field, schema] of Object.entries(asset.properties!)) {
        expect(schema, field).toMatchObject({
          type: 'string',
          maxLength: ASSET_FIELD_LIMITS[field as keyof typeof ASSET_FIELD_LIMITS],
        });
      }
    }
  });

  it('ICP criteria are one component (whole-number min_score), referenced wherever they are taken', () => {
    const icpKeys = Object.keys(icpConfigSchema.def.shape);
    const inline = nodes.filter((n) => sameKeys(n, icpKeys));
    expect(inline).toHaveLength(1);
    expect(
      (document as { components: { schemas: Record<string, Node> } }).components.schemas.IcpConfig.properties!
        .min_score,
    ).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 });
    expect(JSON.stringify(document).split('"#/components/schemas/IcpConfig"').length - 1).toBeGreaterThanOrEqual(3);
  });

  it('a growth plan never carries a LinkedIn URL longer than its own schema allows, though the canonical form adds to what was typed', () => {
    const typed = `linkedin.com/in/${'a'.repeat(ASSET_FIELD_LIMITS.linkedin_url - 'linkedin.com/in/'.length)}`;
    expect(typed).toHaveLength(ASSET_FIELD_LIMITS.linkedin_url);
    expect(normalizeLinkedinUrl(typed)).toBeUndefined();
    expect(normalizeLinkedinUrl('linkedin.com/in/ada')).toBe('https://www.linkedin.com/in/ada');
  });
});
