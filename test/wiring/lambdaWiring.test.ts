import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, Context, SQSEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FUNCTION_WIRING, type FunctionName, type PortName } from '#shared/adapters/functionWiring';
import type { Ports } from '#shared/adapters/ports';
import type { QueueMessage } from '#shared/adapters/queue';
import type { EndpointSpec } from '#shared/schemas/endpoint';
import { buildOpenApi } from '#shared/http/openapi';
import { API_GROUPS, allEndpoints, type ApiGroup } from '#shared/schemas/groups';
import { useOwnTable } from '#test/support/ownTable';
import { inventedList, startPhishingListStandIn } from '#test/support/phishingListStandIn';

/**
 * Each function as Lambda runs it: a fresh module context (its own port registry, nothing left by
 * another function or by the local runtime), with local stand-ins for exactly the ports its wiring
 * lists, then one request of each of its routes. Code reaching a port the wiring does not give the
 * function fails here ("Port queue is not installed") instead of only once deployed. What each
 * function sends on its queues is handed, in turn, to the worker and the webhook sender, so their
 * wiring is exercised on real messages.
 */

type Json = Record<string, any>;
// The renewals function is run for real at the present: it renews, suspends or expires every due
// community of its table and supervises every stalled job, so on the shared table it would act on
// what other files left due at that moment.
await useOwnTable('outreach-wiring');
const document = buildOpenApi(allEndpoints()) as Json;

/** Lines the service writes while a function runs, to find a port refusal that was caught and logged. */
const written: string[] = [];
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    written.push(String(chunk));
    return write(chunk, ...rest);
  }) as typeof stream.write;
}
/** Refusals written since `from` (a position in `written`): a port the function is not wired to. */
const refusals = (from = 0) => written.slice(from).filter((line) => line.includes('is not installed'));

const sent = { queue: [] as QueueMessage[], webhookQueue: [] as QueueMessage[] };
const recordingQueue = (into: QueueMessage[]) => ({
  send: async (messages: QueueMessage[]) => void into.push(...messages),
});

/** A fresh module registry with local stand-ins for exactly `name`'s wired ports; returns the fresh module loader. */
async function freshContext(name: FunctionName) {
  vi.resetModules();
  const { installPorts } = await import('#shared/adapters/ports');
  const { RecordingEvents } = await import('#shared/adapters/domainEvents');
  const { TableDns } = await import('#shared/adapters/dns');
  const { TableResolver } = await import('#shared/adapters/hostResolver');
  const { EnvSecrets } = await import('#shared/adapters/secrets');
  const { LocalPayments } = await import('#shared/adapters/payments');
  const { ephemeralEncryption } = await import('#shared/adapters/encryption');
  const standIns: { [P in PortName]: () => Ports[P] } = {
    queue: () => recordingQueue(sent.queue),
    webhookQueue: () => recordingQueue(sent.webhookQueue),
    events: () => new RecordingEvents(),
    dns: () => new TableDns(),
    hostResolver: () => new TableResolver(),
    secrets: () => new EnvSecrets(),
    payments: () => new LocalPayments(randomUUID),
    encryption: () => ephemeralEncryption(),
  };
  const wired = FUNCTION_WIRING[name].ports as readonly PortName[];
  installPorts(Object.fromEntries(wired.map((port) => [port, standIns[port]()])));
}

const resolveRef = (schema: Json): Json =>
  schema?.$ref ? resolveRef(document.components.schemas[schema.$ref.split('/').pop()]) : schema;

/** A value the schema accepts where it can tell (first enum value, minimum, required properties). */
function sample(raw: Json | undefined, depth = 0): unknown {
  const schema = resolveRef(raw ?? {});
  if (depth > 8) return undefined;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = (schema[key] as Json[] | undefined)?.filter((b) => b.type !== 'null');
    if (branches?.length && !schema.properties) return sample(branches[0], depth + 1);
  }
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s: Json) => sample(s, depth + 1)));
  switch (schema.type) {
    case 'object': {
      const branchRequired = (schema.oneOf ?? schema.anyOf)?.[0]?.required ?? [];
      const keys = [...new Set([...(schema.required ?? []), ...branchRequired])] as string[];
      return Object.fromEntries(keys.map((k) => [k, sample(schema.properties?.[k], depth + 1)]));
    }
    case 'array': {
      const n = Math.min(Math.max(schema.minItems ?? 1, 1), schema.maxItems ?? 1);
      return Array.from({ length: n }, () => sample(schema.items, depth + 1));
    }
    case 'string':
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'date') return new Date().toISOString().slice(0, 10);
      if (schema.format === 'uri') return 'https://example.com/in';
      return 'a'.repeat(Math.max(schema.minLength ?? 0, 5));
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    default:
      return 'sample';
  }
}

const lambdaContext = (name: string) =>
  ({ functionName: name, awsRequestId: randomUUID(), getRemainingTimeInMillis: () => 30_000 }) as unknown as Context;

function eventFor(spec: EndpointSpec, caller: { userId: string; keyHash: string }, key: string): APIGatewayProxyEvent {
  const operation = document.paths[spec.path][spec.method.toLowerCase()];
  const parameters = (operation.parameters ?? []).map(resolveRef) as Json[];
  const pathParameters = Object.fromEntries(
    parameters.filter((p) => p.in === 'path').map((p) => [p.name, String(sample(p.schema))]),
  );
  const query = Object.fromEntries(
    parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, String(sample(p.schema))]),
  );
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  const path = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathParameters[name]));
  const headers: Record<string, string> = {
    host: 'localhost',
    'content-type': 'application/json',
    authorization: `Bearer ${key}`,
    accept: 'application/json',
  };
  return {
    resource: spec.path,
    path,
    httpMethod: spec.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: Object.keys(query).length ? query : null,
    multiValueQueryStringParameters: null,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : null,
    stageVariables: null,
    body: Object.hasOwn(BODIES, spec.operationId)
      ? JSON.stringify(BODIES[spec.operationId])
      : bodySchema
        ? JSON.stringify(sample(bodySchema))
        : null,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'wiring',
      authorizer: spec.auth === 'api_key' ? { principalId: caller.userId, ...caller } : null,
      httpMethod: spec.method,
      identity: { sourceIp: '127.0.0.1', userAgent: null },
      path,
      protocol: 'HTTP/1.1',
      requestId: randomUUID(),
      requestTimeEpoch: Date.now(),
      resourceId: 'wiring',
      resourcePath: spec.path,
      stage: 'prod',
      domainName: 'localhost',
    } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

const sqsEvent = (messages: QueueMessage[]): SQSEvent => ({
  Records: messages.map((m, i) => ({
    messageId: `m-${i}`,
    receiptHandle: `r-${i}`,
    body: m.body,
    attributes: { ApproximateReceiveCount: '1' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:0:wiring',
    awsRegion: 'local',
  })) as unknown as SQSEvent['Records'],
});

const { createAccount } = await import('#shared/domain/accounts/accounts');
const { identifyCaller } = await import('#shared/domain/accounts/callerIdentity');
/** A pro account with credits; one per request, since some routes rotate the key or delete what others read. */
async function newCaller() {
  const account = await createAccount({ email: `wiring-${randomUUID()}@example.com`, tier: 'pro', credits: 1_000_000 });
  const caller = await identifyCaller(`Bearer ${account.apiKey}`);
  if (!caller) throw new Error('the new account is not recognised');
  return { ...account, caller };
}
const account = await newCaller();

/** Bodies that get past validation into the domain, where a route's sample would not (its rules are more than its schema). */
const BODIES: Record<string, unknown> = {
  createJob: {
    preset: 'full_pipeline',
    input_assets: {
      companies: [{ company_name: 'Orbit', domain: 'orbit.io' }],
      contacts: [{ full_name: 'Ada Park', domain: 'orbit.io' }],
    },
  },
};

describe('each function, alone as in its Lambda, through one request of each of its routes', () => {
  const reached: string[] = [];
  let mark = 0;
  beforeEach(() => {
    mark = written.length;
  });
  const groups = Object.keys(API_GROUPS) as ApiGroup[];
  for (const group of groups) {
    // The streaming route's function (jobs-events) is wired to no port.
    const routes = (API_GROUPS[group] as EndpointSpec[]).filter((spec) => !spec.streaming);
    it(`${group}: ${routes.length} routes answer without a 500 and reach no port outside its wiring`, async () => {
      await freshContext(group);
      const { handler } = (await import(`#functions/${group}/handler`)) as {
        handler: (e: APIGatewayProxyEvent, c: Context) => Promise<{ statusCode: number; body: string }>;
      };
      const answers: string[] = [];
      for (const spec of routes) {
        const before = written.length;
        const { caller, apiKey } = await newCaller();
        const result = await handler(eventFor(spec, caller, apiKey), lambdaContext(group));
        answers.push(`${spec.operationId} ${result.statusCode}`);
        expect(
          result.statusCode,
          `${spec.operationId}: ${result.body.slice(0, 200)} ${written.slice(before).join('').slice(0, 600)}`,
        ).not.toBe(500);
      }
      expect(refusals(mark), answers.join(', ')).toEqual([]);
      reached.push(...answers);
    });
  }

  it('got most requests past validation and authentication into domain code (a refused sample proves little)', () => {
    const refused = reached.filter((a) => / (400|401|403)$/.test(a));
    expect(refused.length, refused.join(', ')).toBeLessThanOrEqual(reached.length / 4);
  });

  it('worker: the pipeline and platform messages the functions above queued', async () => {
    expect(sent.queue.length).toBeGreaterThan(0);
    await freshContext('worker');
    const { handler } = await import('#functions/worker/handler');
    const answer = await handler(sqsEvent(sent.queue.splice(0)), lambdaContext('worker'));
    expect(answer.batchItemFailures).toEqual([]);
    expect(refusals(mark)).toEqual([]);
  });

  it('dead-letters: a pipeline message that kept failing', async () => {
    await freshContext('dead-letters');
    const { handler } = await import('#functions/dead-letters/handler');
    await handler(
      sqsEvent([
        {
          body: JSON.stringify({
            kind: 'stage',
            job_id: randomUUID(),
            user_id: account.user.id,
            capability: 'email_verify',
            batch_no: 0,
          }),
        },
      ]),
    );
    expect(refusals(mark)).toEqual([]);
  });

  it('webhook-sender: the webhook messages the functions above queued', async () => {
    await freshContext('webhook-sender');
    const { handler } = await import('#functions/webhook-sender/handler');
    const answer = await handler(sqsEvent(sent.webhookQueue.splice(0)), lambdaContext('webhook-sender'));
    expect(answer.batchItemFailures).toEqual([]);
    expect(refusals(mark)).toEqual([]);
  });

  it('renewals and captchas: one scheduled run each', async () => {
    const scheduled = {
      id: randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      time: new Date().toISOString(),
      detail: {},
    } as never;
    await freshContext('renewals');
    const renewals = await import('#functions/renewals/handler');
    await expect(renewals.handler(scheduled, lambdaContext('renewals'))).resolves.toMatchObject({
      jobs: expect.anything(),
    });
    await freshContext('captchas');
    const captchas = await import('#functions/captchas/handler');
    await expect(captchas.handler(scheduled, lambdaContext('captchas'))).resolves.toMatchObject({
      removed: expect.any(Number),
    });
    expect(refusals(mark)).toEqual([]);
  });

  it('phishing-refresh: one scheduled run, with no port but the table', async () => {
    const source = await startPhishingListStandIn();
    const saved = process.env.PHISHING_LIST_URL;
    process.env.PHISHING_LIST_URL = source.url;
    try {
      source.serve(inventedList({ blacklist: ['wiring-lure.test'], padTo: 1_000 }));
      await freshContext('phishing-refresh');
      const { handler } = await import('#functions/phishing-refresh/handler');
      const scheduled = {
        id: randomUUID(),
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        detail: {},
      } as never;
      await expect(handler(scheduled, lambdaContext('phishing-refresh'))).resolves.toMatchObject({
        outcome: 'written',
        source: source.url,
        changed: true,
        blocked: 1_000,
      });
      expect(source.requests).toHaveLength(1);
      expect(refusals(mark)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.PHISHING_LIST_URL;
      else process.env.PHISHING_LIST_URL = saved;
      await source.close();
    }
  });

  it('authorizer: a key', async () => {
    await freshContext('authorizer');
    const { handler } = await import('#functions/authorizer/handler');
    await expect(
      handler({
        type: 'TOKEN',
        authorizationToken: `Bearer ${account.apiKey}`,
        methodArn: 'arn:aws:execute-api:local:0:api/prod/GET/x',
      }),
    ).resolves.toMatchObject({ principalId: account.user.id });
  });
});
