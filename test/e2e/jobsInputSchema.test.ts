import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startTestApi } from '#test/support/api';
import { openApiDocument } from '#test/support/contract';

// A client generated from the document must not build a body the server then refuses for its shape:
// whatever the server answers 400 for its input assets, the document's request schema refuses too.
const api = await startTestApi();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(openApiDocument, 'openapi');
const requestSchema = (path: string) =>
  ajv.compile({
    $ref: `openapi#/paths/${path.replaceAll('/', '~1')}/post/requestBody/content/application~1json/schema`,
  });

const ASSETS: [string, Record<string, unknown>, boolean][] = [
  ['no companies or contacts', {}, false],
  ['both empty', { companies: [], contacts: [] }, false],
  ['empty companies alone', { companies: [] }, false],
  ['empty contacts alone', { contacts: [] }, false],
  ['one contact, empty companies', { companies: [], contacts: [{ email: 'ana@acme.org' }] }, true],
  ['one company', { companies: [{ company_name: 'Acme', domain: 'acme.org' }] }, true],
];

describe.each(['/api/v1/bd/jobs/quote', '/api/v1/bd/jobs'])('POST %s input_assets', (path) => {
  const valid = requestSchema(path);
  it.each(ASSETS)('%s: the document and the server agree', async (_name, assets, accepted) => {
    const { key } = await api.newUser({ tier: 'pro', credits: 100_000 });
    const body = { preset: 'verify_existing_emails', input_assets: assets };
    expect(valid(body), JSON.stringify(valid.errors)).toBe(accepted);
    const res = await api.call('POST', path.replace('/api/v1', ''), { key, body });
    if (accepted) expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    else {
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.error.details)).toContain('input_assets');
    }
  });
});
