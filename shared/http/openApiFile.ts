import { allEndpoints } from '#shared/schemas/groups';
import { buildOpenApi } from './openapi';

/** The text of functions/public/openapi.json: the document without a server, indented for readable diffs. */
export const openApiFileText = (): string => `${JSON.stringify(buildOpenApi(allEndpoints()), null, 2)}\n`;
