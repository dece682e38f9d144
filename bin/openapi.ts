/**
 * `npm run openapi`: writes the OpenAPI document (functions/public/openapi.json) from the endpoint
 * schemas. Run it after changing an endpoint; test/http/openApiFile.test.ts fails while it is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPENAPI_SIDE_FILE } from '#infra/functionCatalog';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { openApiFileText } from '#shared/http/openApiFile';

writeFileSync(join(PROJECT_ROOT, OPENAPI_SIDE_FILE), openApiFileText());
console.log(`wrote ${OPENAPI_SIDE_FILE}`);
