/**
 * Each tool's inputSchema and outputSchema, from the zod schemas of the route it runs: the route's path
 * parameters, query and body become one flat object of arguments, and its response the output.
 */
import * as z from '#shared/zod';
import type { EndpointSpec } from '#shared/schemas/endpoint';
import { packageCatalogue } from '#shared/schemas/mcp';
import { jsonObjectAt, type JsonObject } from '#shared/json';
import { MAX_PAGE, type ToolDef } from './tools';

export type Json = JsonObject;

/** A self-contained JSON Schema (its shared parts under $defs), without the dialect and registry id MCP clients do not expect. */
export function jsonSchemaOf(schema: z.core.$ZodType, io: 'input' | 'output'): Json {
  const {
    $schema: _dialect,
    id: _id,
    ...rest
  } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  // A schema with a registry id comes back as a reference to itself: MCP wants the object at the root.
  const named =
    typeof rest.$ref === 'string' && rest.$ref.startsWith('#/$defs/') ? rest.$ref.slice('#/$defs/'.length) : undefined;
  if (named === undefined || !jsonObjectAt(rest.$defs)[named]) return rest;
  const { $ref: _ref, $defs, ...others } = rest;
  const { id: _named, ...root } = jsonObjectAt(jsonObjectAt($defs)[named]);
  return { ...others, ...root, $defs };
}

/**
 * The property names of an object schema (the route's params or query). zod/mini types a schema's
 * definition per kind; the route's params and query are object schemas, whose `shape` the general type
 * does not name.
 */
export const shapeKeys = (schema: z.core.$ZodType | undefined): string[] =>
  schema
    ? Object.keys((schema as unknown as { _zod: { def: { shape?: Record<string, unknown> } } })._zod.def.shape ?? {})
    : [];

const pageArgument = (description: string) => ({
  type: 'integer',
  minimum: 1,
  maximum: MAX_PAGE,
  default: MAX_PAGE,
  description,
});
const offsetArgument = {
  type: 'integer',
  minimum: 0,
  default: 0,
  description: 'How many records to skip (the previous call’s _meta.page.next_offset)',
};

/** Root keywords of a body schema that still hold on the merged arguments (they name properties only). */
const CARRIED = ['oneOf', 'anyOf', 'allOf', 'minProperties', 'description'] as const;

export function toolInputSchema(tool: ToolDef, spec: EndpointSpec | undefined): Json {
  const properties: Json = {};
  const required: string[] = [];
  const merged: Json = { type: 'object', properties, required, additionalProperties: false };
  const defs: Json = {};
  for (const part of [spec?.params, spec?.query, spec?.body]) {
    if (!part) continue;
    const json = jsonSchemaOf(part, 'input');
    Object.assign(properties, jsonObjectAt(json.properties));
    if (Array.isArray(json.required)) required.push(...json.required.filter((r) => typeof r === 'string'));
    Object.assign(defs, jsonObjectAt(json.$defs));
    if (part === spec?.body) for (const key of CARRIED) if (json[key] !== undefined) merged[key] = json[key];
  }
  if (tool.pagedByRoute) properties.limit = pageArgument('How many items (at most 25 a call)');
  if (tool.recordsAt || !spec) {
    properties.limit = pageArgument('How many records (at most 25 a call)');
    properties.offset = offsetArgument;
  }
  for (const [name, cap] of Object.entries(tool.caps ?? {})) {
    const property = jsonObjectAt(properties[name]);
    const maximum = typeof property.maximum === 'number' ? property.maximum : cap;
    properties[name] = {
      ...property,
      maximum: Math.min(maximum, cap),
      ...(typeof property.default === 'number' && property.default > cap ? { default: cap } : {}),
    };
  }
  if (tool.kind === 'spend' && !required.includes('quote_token')) required.push('quote_token');
  if (Object.keys(defs).length) merged.$defs = defs;
  return merged;
}

export function toolOutputSchema(spec: EndpointSpec | undefined): Json {
  return jsonSchemaOf(spec?.response ?? packageCatalogue, 'output');
}
