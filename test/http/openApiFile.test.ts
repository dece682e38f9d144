import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPENAPI_SIDE_FILE } from '#infra/functionCatalog';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { openApiFileText } from '#shared/http/openApiFile';

describe('the OpenAPI document served by the public function', () => {
  it(`is what the endpoint schemas give today (run \`npm run openapi\` after changing an endpoint)`, () => {
    const stored = readFileSync(join(PROJECT_ROOT, OPENAPI_SIDE_FILE), 'utf8');
    expect(stored === openApiFileText(), `${OPENAPI_SIDE_FILE} is out of date: run \`npm run openapi\``).toBe(true);
  });
});
