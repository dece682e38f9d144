import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { getBalance } from '#shared/domain/credits/credits';
import { startTestApi } from '#test/support/api';
import { openApiDocument } from '#test/support/contract';

/**
 * Bounded fuzzing of every operation of the published document: generated path segments, query
 * strings, header names and bodies. Whatever comes in, the answer is never a 5xx, always matches
 * the document (test/support/api.ts checks every response), and a 4xx never moves credits.
 * FUZZ_SEED and FUZZ_RUNS reproduce or widen a run; fast-check prints the seed and path of a failure.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** Runs per operation and alphabet: together about a minute on a loaded two-core machine. */
const RUNS = { plain: Number(process.env.FUZZ_RUNS ?? 30), hostile: Number(process.env.FUZZ_RUNS ?? 20) };

const api = await startTestApi();
const account = await api.newUser({ tier: 'pro', credits: 1_000_000 });
let key = account.key;

type Json = Record<string, any>;

const PROTO_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'prototype',
  '__defineGetter__',
];

/**
 * The hostile part of the alphabet: Object.prototype names as keys, malformed percent-encoding,
 * deep JSON and impossible dates (test/e2e/hostileInput.test.ts pins each
 * one's answer). The plain suite leaves them out so that more of its runs get past validation.
 */
interface Alphabet {
  hostile: boolean;
}
const hostileOnly = <T>(a: Alphabet, values: T[]): T[] => (a.hostile ? values : []);

const nastyString = (a: Alphabet) =>
  fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom(
      '',
      ' ',
      'null',
      '0',
      '-1',
      '1e400',
      'NaN',
      '2026-01-31',
      '\u0000',
      '\ud800',
      '😀'.repeat(50),
      '../..',
      'a'.repeat(5000),
      ...hostileOnly(a, [...PROTO_NAMES, '2026-02-30', '9999-99-99', '0000-00-00']),
    ),
  );
const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(0, -1, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, 1.5),
);
// fast-check slips prototype names into plain strings by itself; outside the hostile suite they are kept out.
const notProto = (a: Alphabet) => (s: string) => a.hostile || !PROTO_NAMES.includes(s);
const keyOf = (a: Alphabet, known: string[]) =>
  fc.oneof(
    fc.string({ maxLength: 12 }).filter(notProto(a)),
    ...(known.length || a.hostile ? [fc.constantFrom(...known, ...hostileOnly(a, PROTO_NAMES))] : []),
  );
const nastyValue = (a: Alphabet): fc.Arbitrary<unknown> =>
  fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      nastyString(a),
      nastyNumber,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(keyOf(a, []), tie('value'), { maxKeys: 4 }),
    ),
  })).value;

/** encodeURIComponent refuses lone surrogates; a URL carries them as U+FFFD anyway. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const encodeSegment = (s: string) => encodeURIComponent(s.replace(LONE_SURROGATE, '\ufffd'));
const uuidLike = fc.oneof(fc.uuid({ version: 7 }), fc.uuid());
const MALFORMED_PERCENT = ['%', '%zz', '%E0%A4%A', '%C0%AF', 'a%2', '%FF'];
/** Path segments: encoded strings, valid and near-valid ids (and, when hostile, prototype names and broken escapes). */
const pathSegment = (a: Alphabet) =>
  fc.oneof(
    uuidLike,
    nastyString(a)
      .filter((s) => s !== '' && notProto(a)(s))
      .map(encodeSegment),
    fc.constantFrom(`cs_local_${'0'.repeat(36)}`, 'x', ...hostileOnly(a, [...PROTO_NAMES, ...MALFORMED_PERCENT])),
  );
/** Header names are HTTP tokens; values are visible ASCII. */
const headerName = (a: Alphabet) =>
  fc.oneof(
    fc.stringMatching(/^[a-z][a-z0-9-]{0,30}$/).filter(notProto(a)),
    fc.constantFrom(
      'idempotency-key',
      'accept',
      'stripe-signature',
      'x-telegram-bot-api-secret-token',
      ...hostileOnly(a, PROTO_NAMES),
    ),
  );
const headerValue = fc.oneof(
  fc.stringMatching(/^[\x21-\x7e]{0,60}$/),
  fc.constantFrom('text/html', 'text/event-stream;q=0', 't=1,v1=00', 'a'.repeat(300)),
);
const RAW_BODIES = ['{', '{"a":', 'null', '[]', '"x"', '\u0000', '{"a":1,"a":2}', '1e999', '{"limit":1e400}'];
const DEEP_JSON = ['['.repeat(200_000) + ']'.repeat(200_000), `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`];

/**
 * Values shaped by the document's own schema (types, enums, bounds, required keys), so a good share
 * of requests passes validation and reaches the domain code instead of stopping at a 400.
 */
const resolve = (schema: Json): Json =>
  (schema?.$ref ? openApiDocument.components.schemas[schema.$ref.split('/').pop()] : schema) ?? {};
function fromSchema(input: Json, a: Alphabet, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(input);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const branches = (schema.anyOf ?? schema.oneOf ?? []).filter((b: Json) => b.type || b.$ref || b.enum || b.properties);
  if (branches.length && !schema.type) return fc.oneof(...branches.map((b: Json) => fromSchema(b, a, depth)));
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((t: string) => fromSchema({ ...schema, type: t }, a, depth)));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1_000, -1e9), max: Math.min(schema.maximum ?? 1_000, 1e9) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'string': {
      if (schema.format === 'uuid') return uuidLike;
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'date-time')
        return fc
          .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      if (schema.format === 'date')
        return fc
          .date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      return fc.string({
        minLength: schema.minLength ?? 0,
        maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 30, 30)),
      });
    }
    case 'array':
      if (depth > 4) return fc.constant([]);
      return fc.array(fromSchema(schema.items ?? {}, a, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    case 'object': {
      if (depth > 4) return fc.constant({});
      const props = Object.entries((schema.properties ?? {}) as Json);
      if (!props.length) return fc.dictionary(keyOf(a, []), nastyValue(a), { maxKeys: 3 });
      const required = new Set<string>(schema.required ?? []);
      return fc.record(Object.fromEntries(props.map(([k, v]) => [k, fromSchema(v, a, depth + 1)])), {
        requiredKeys: props.map(([k]) => k).filter((k) => required.has(k) || k === 'domain'),
      });
    }
    default:
      return nastyValue(a);
  }
}

const propertyNames = (schema: Json | undefined): string[] => {
  const resolved = schema?.$ref ? openApiDocument.components.schemas[schema.$ref.split('/').pop()] : schema;
  return Object.keys(resolved?.properties ?? {});
};

interface Operation {
  method: string;
  template: string;
  op: Json;
}
/** The MCP endpoint answers malformed MCP traffic with the SDK's JSON-RPC errors, as MCP clients expect: test/fuzz/mcpTools.test.ts fuzzes it. */
const OWN_FUZZ = new Set(['/api/v1/mcp']);
const operations: Operation[] = Object.entries(openApiDocument.paths as Json)
  .filter(([template]) => !OWN_FUZZ.has(template))
  .flatMap(([template, ops]) =>
    Object.entries(ops as Json).map(([method, op]) => ({ method: method.toUpperCase(), template, op: op as Json })),
  );

function requestArbitrary({ method, template, op }: Operation, a: Alphabet) {
  const queryNames = (op.parameters as Json[]).filter((p) => p.in === 'query').map((p) => p.name as string);
  const bodyNames = propertyNames(op.requestBody?.content?.['application/json']?.schema);
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const queryValue = fc.oneof(nastyString(a), nastyNumber.map(String), uuidLike);
  const fuzzedQuery = fc.array(fc.tuple(keyOf(a, queryNames), queryValue), { maxLength: 4 });
  const shapedQuery = fc
    .tuple(
      ...(op.parameters as Json[])
        .filter((p) => p.in === 'query')
        .map((p) =>
          fc.option(
            fromSchema(p.schema, a).map((v) => [p.name as string, String(v)] as [string, string]),
            { nil: undefined },
          ),
        ),
    )
    .map((pairs) => pairs.filter((p): p is [string, string] => p !== undefined));
  const encodedQuery = fc.oneof(fuzzedQuery, shapedQuery).map((pairs) => new URLSearchParams(pairs).toString());
  const rawQuery = fc
    .tuple(fc.constantFrom(...queryNames, 'x'), fc.constantFrom(...MALFORMED_PERCENT))
    .map(([k, v]) => `${k}=${v}`);
  return fc.record({
    path: fc.array(pathSegment(a), { minLength: 4, maxLength: 4 }).map((segments) => {
      let i = 0;
      return template.replace(/\{\w+\}/g, () => segments[i++]);
    }),
    query: a.hostile ? fc.oneof(encodedQuery, rawQuery) : encodedQuery,
    headers: fc.dictionary(headerName(a), headerValue, { maxKeys: 3 }),
    body:
      method === 'GET'
        ? fc.constant(undefined)
        : fc.oneof(
            fc.dictionary(keyOf(a, bodyNames), nastyValue(a), { maxKeys: 6 }),
            nastyValue(a),
            fc.constant(undefined),
            ...(bodySchema ? [fromSchema(bodySchema, a), fromSchema(bodySchema, a)] : []),
          ),
    rawBody:
      method === 'GET'
        ? fc.constant(undefined)
        : fc.option(fc.constantFrom(...RAW_BODIES, ...hostileOnly(a, DEEP_JSON)), { nil: undefined, freq: 3 }),
    auth: fc.constantFrom<'valid' | 'none' | 'bad'>('valid', 'valid', 'valid', 'valid', 'none', 'bad'),
  });
}

/** FUZZ_STATS=1 prints how often each status came back, to see how deep the generators reach. */
const statuses = new Map<string, number>();
afterAll(() => {
  if (process.env.FUZZ_STATS === '1')
    console.log(
      [...statuses]
        .sort()
        .map(([k, n]) => `${k}: ${n}`)
        .join('\n'),
    );
});

type Req = {
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  auth: 'valid' | 'none' | 'bad';
};

async function send(method: string, template: string, req: Req) {
  const headers = { ...req.headers };
  if (req.auth === 'bad') headers.authorization = 'Bearer oik_not_a_key';
  const url = `${api.origin}${req.path}${req.query ? `?${req.query}` : ''}`;
  const before = await getBalance(account.user.id);
  if (req.rawBody !== undefined) headers['content-type'] = 'application/json';
  const payload =
    req.rawBody !== undefined ? { rawBody: req.rawBody } : req.body !== undefined ? { body: req.body } : {};
  const res = await api.call(method, url, { key: req.auth === 'valid' ? key : null, headers, ...payload });
  const tally = `${method} ${template} ${res.status}`;
  statuses.set(tally, (statuses.get(tally) ?? 0) + 1);
  // A fuzzed rotation is a success like any other; keep using the key that now works.
  if (res.status < 300 && typeof res.body?.api_key === 'string') key = res.body.api_key;
  expect(res.status, `${method} ${url} -> ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400)
    expect((await getBalance(account.user.id)).available, `${method} ${url} moved credits on ${res.status}`).toBe(
      before.available,
    );
}

const property = (operation: Operation, a: Alphabet) => () =>
  fc.assert(
    fc.asyncProperty(requestArbitrary(operation, a), (req) => send(operation.method, operation.template, req)),
    { numRuns: a.hostile ? RUNS.hostile : RUNS.plain, seed: SEED },
  );

describe('fuzzing every documented operation', () => {
  it('has operations to fuzz', () => expect(operations.length).toBeGreaterThan(30));
  for (const operation of operations)
    it(`${operation.method} ${operation.template}`, property(operation, { hostile: false }));
});

describe('fuzzing every documented operation with hostile names, escapes, depth and dates', () => {
  for (const operation of operations)
    it(`${operation.method} ${operation.template}`, property(operation, { hostile: true }));
});
