import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { buildOpenApi } from '#shared/http/openapi';
import { mostSpecificTemplate } from '#shared/http/pathTemplates';
import { allEndpoints } from '#shared/schemas/groups';

type Json = Record<string, any>;

/** The document the server publishes, built the same way, and a draft 2020-12 validator over it. */
export const openApiDocument: Json = buildOpenApi(allEndpoints(), 'http://127.0.0.1');

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(openApiDocument, 'openapi');

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
const validators = new Map<string, ValidateFunction>();
const validatorAt = (path: string): ValidateFunction => {
  let validate = validators.get(path);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi#/${path}` });
    validators.set(path, validate);
  }
  return validate;
};

const operations = Object.entries(openApiDocument.paths as Json).flatMap(([template, ops]) =>
  Object.entries(ops as Json).map(([method, operation]) => ({
    template,
    method: method.toUpperCase(),
    operation: operation as Json,
    pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
  })),
);

/** The operation API Gateway routes to: of the templates the path matches, the most specific one's. */
export const operationFor = (method: string, pathname: string) => {
  const matching = operations.filter((o) => o.pattern.test(pathname));
  const resource = mostSpecificTemplate(matching.map((o) => o.template));
  return matching.find((o) => o.template === resource && o.method === method.toUpperCase());
};

/**
 * Why a response breaks the document, or undefined when it keeps it: the status must be declared for
 * the operation, the content type one the status declares, and a JSON body valid against its schema.
 * An unknown path must answer the error body with 404, a known path asked with another method with 405.
 */
export function contractViolation(
  method: string,
  pathname: string,
  status: number,
  contentType: string | null,
  text: string,
): string | undefined {
  const op = operationFor(method, pathname);
  if (!op) {
    // A path the document has, with a method it does not: 405 (the server names the methods in Allow).
    const expected = operations.some((o) => o.pattern.test(pathname)) ? 405 : 404;
    if (status !== expected)
      return `${method} ${pathname}: no operation in the document, yet answered ${status} (expected ${expected})`;
    return checkJson('components/schemas/ErrorBody', text, `${method} ${pathname} ${status}`);
  }
  const where = `${op.method} ${op.template} -> ${status}`;
  const response = op.operation.responses[String(status)] as Json | undefined;
  if (!response)
    return `${where}: status not declared (declared: ${Object.keys(op.operation.responses).join(', ')}); body ${text.slice(0, 300)}`;
  const content = response.content as Json | undefined;
  if (!content) return text === '' ? undefined : `${where}: declared without a body, yet sent ${text.slice(0, 200)}`;
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (!(mediaType in content))
    return `${where}: content type ${contentType} not declared (declared: ${Object.keys(content).join(', ')})`;
  if (mediaType !== 'application/json') return undefined;
  return checkJson(
    pointer(
      'paths',
      op.template,
      op.method.toLowerCase(),
      'responses',
      String(status),
      'content',
      'application/json',
      'schema',
    ),
    text,
    where,
  );
}

function checkJson(path: string, text: string, where: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where}: body is not JSON: ${text.slice(0, 200)}`;
  }
  const validate = validatorAt(path);
  if (validate(body)) return undefined;
  return `${where}: body does not match the document: ${ajv.errorsText(validate.errors, { separator: '; ' })}; body ${text.slice(0, 500)}`;
}

/** Why one SSE event breaks the document (an undeclared name, or data off its x-sse-events schema), or undefined. */
export function sseEventViolation(pathname: string, event: string, data: string): string | undefined {
  const op = operationFor('GET', pathname);
  const events = op?.operation.responses['200']?.content?.['text/event-stream']?.['x-sse-events'] as Json | undefined;
  if (!op || !events) return `GET ${pathname}: not a documented event stream`;
  if (!(event in events))
    return `GET ${op.template}: event ${event} not declared (declared: ${Object.keys(events).join(', ')})`;
  return checkJson(
    pointer('paths', op.template, 'get', 'responses', '200', 'content', 'text/event-stream', 'x-sse-events', event),
    data,
    `GET ${op.template} event ${event}`,
  );
}
