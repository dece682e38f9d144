import { required } from './harness';
import { mustGet } from '#shared/maps';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { buildBundles, HELLO_WORLD, type BuiltBundle } from './bundles';
import { ensureTable, startDynamo } from '../local/dynamo';
import { installLocalPorts, LOCAL_TABLE, useLocalTable } from '../local/runtime';
import { ensureDemoAccount } from '#shared/domain/accounts/demo';
import { identifyCaller } from '#shared/domain/accounts/callerIdentity';

const run = promisify(execFile);

/** The first request each measured function gets: a real route, answered from DynamoDB Local. */
type Caller = { userId: string; keyHash: string; apiKey: string };
const apiEvent = (method: string, path: string, caller: Caller | null) => ({
  resource: path,
  path,
  httpMethod: method,
  headers: {
    host: 'localhost',
    accept: 'application/json',
    ...(caller ? { authorization: `Bearer ${caller.apiKey}` } : {}),
  },
  multiValueHeaders: {},
  queryStringParameters: null,
  multiValueQueryStringParameters: null,
  pathParameters: null,
  stageVariables: null,
  body: null,
  isBase64Encoded: false,
  requestContext: {
    accountId: '000000000000',
    apiId: 'bench',
    authorizer: caller ? { principalId: caller.userId, userId: caller.userId, keyHash: caller.keyHash } : null,
    httpMethod: method,
    identity: { sourceIp: '127.0.0.1', userAgent: null },
    path,
    protocol: 'HTTP/1.1',
    requestId: randomUUID(),
    requestTimeEpoch: Date.now(),
    resourceId: 'bench',
    resourcePath: path,
    stage: 'prod',
    domainName: 'localhost',
  },
});

/** Function, its first event, and the status the answer must carry (a failed first call is not a cold start). */
const FIRST_CALLS: Record<string, (caller: Caller) => { event: unknown; expect: (result: unknown) => boolean }> = {
  [HELLO_WORLD]: (caller) => ({
    event: { id: `USER#${caller.userId}` },
    expect: (r) => typeof r === 'object' && r !== null,
  }),
  authorizer: (caller) => ({
    event: {
      type: 'TOKEN',
      authorizationToken: `Bearer ${caller.apiKey}`,
      methodArn: 'arn:aws:execute-api:us-east-1:000000000000:bench/prod/GET/api/v1/users/me',
    },
    expect: (r) => (r as { principalId?: string }).principalId === caller.userId,
  }),
  public: () => ({
    event: apiEvent('GET', '/api/v1/health', null),
    expect: (r) => (r as { statusCode: number }).statusCode === 200,
  }),
  account: (caller) => ({
    event: apiEvent('GET', '/api/v1/users/me', caller),
    expect: (r) => (r as { statusCode: number }).statusCode === 200,
  }),
  storage: (caller) => ({
    event: apiEvent('GET', '/api/v1/chats', caller),
    expect: (r) => (r as { statusCode: number }).statusCode === 200,
  }),
  jobs: (caller) => ({
    event: apiEvent('GET', '/api/v1/bd/jobs', caller),
    expect: (r) => (r as { statusCode: number }).statusCode === 200,
  }),
  outbound: (caller) => ({
    event: apiEvent('GET', '/api/v1/webhooks/endpoints', caller),
    expect: (r) => (r as { statusCode: number }).statusCode === 200,
  }),
  moderation: (caller) => ({
    event: apiEvent('GET', '/api/v1/integrations/moderation/communities', caller),
    expect: (r) => (r as { statusCode: number }).statusCode === 200,
  }),
};

interface Sample {
  total: number;
  load: number;
  first: number;
}

/**
 * One cold start as Lambda has it: a fresh Node process (no --enable-source-maps, as the stack runs
 * it), require of the bundle, then the first invocation. Process start-up itself is excluded, as
 * it is the same for every function.
 */
async function coldOnce(
  bundle: BuiltBundle,
  endpoint: string,
  call: { event: unknown; expect: (result: unknown) => boolean },
): Promise<Sample> {
  const script =
    `const t0=process.hrtime.bigint();const m=require(${JSON.stringify(bundle.file)});const t1=process.hrtime.bigint();` +
    `Promise.resolve(m.handler(${JSON.stringify(call.event)},{functionName:${JSON.stringify(bundle.name)},awsRequestId:'bench',getRemainingTimeInMillis:()=>30000})).then((r)=>{const t2=process.hrtime.bigint();` +
    `process.stdout.write(JSON.stringify({load:Number(t1-t0)/1e6,first:Number(t2-t1)/1e6,result:r}))})`;
  const env = {
    PATH: process.env.PATH ?? '',
    ...bundle.env,
    TABLE_NAME: LOCAL_TABLE,
    DYNAMODB_ENDPOINT: endpoint,
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    POWERTOOLS_LOG_LEVEL: 'WARN',
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
  const { stdout } = await run(process.execPath, ['-e', script], { env, encoding: 'utf8' });
  const parsed = JSON.parse(stdout) as { load: number; first: number; result: unknown };
  if (!call.expect(parsed.result))
    throw new Error(
      `cold start of ${bundle.name}: unexpected first answer ${JSON.stringify(parsed.result).slice(0, 300)}`,
    );
  return { load: parsed.load, first: parsed.first, total: parsed.load + parsed.first };
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

/**
 * `npm run bench -- cold`: cold start (import, then the first call of a real route against
 * DynamoDB Local) of each function of FIRST_CALLS beside the hello-world in the same run. Samples
 * are taken round-robin (one of each function per round) so that load on a shared machine weighs
 * on all alike; ratios are of p50 to p50 and p95 to p95.
 */
export async function printColdStarts(samples = 20, print: (line: string) => void = console.log): Promise<void> {
  const dynamo = await startDynamo();
  const { bundles, dispose } = await buildBundles(Object.keys(FIRST_CALLS));
  try {
    useLocalTable(dynamo.endpoint, LOCAL_TABLE);
    await ensureTable(dynamo.endpoint, LOCAL_TABLE);
    installLocalPorts();
    const apiKey = await ensureDemoAccount({ email: 'bench-cold@example.com', tier: 'pro', credits: 1000 });
    const identity = required(await identifyCaller(`Bearer ${apiKey}`), 'the demo caller');
    const caller: Caller = { ...identity, apiKey };
    const calls = new Map(bundles.map((b) => [b.name, FIRST_CALLS[b.name](caller)]));
    const taken = new Map(bundles.map((b) => [b.name, [] as Sample[]]));
    for (let round = 0; round < samples; round++)
      for (const b of bundles)
        mustGet(taken, b.name, 'taken').push(await coldOnce(b, dynamo.endpoint, mustGet(calls, b.name, 'calls')));
    const stats = (name: string, key: keyof Sample) => ({
      p50: percentile(
        mustGet(taken, name, 'taken').map((s) => s[key]),
        50,
      ),
      p95: percentile(
        mustGet(taken, name, 'taken').map((s) => s[key]),
        95,
      ),
    });
    const hello = { total: stats(HELLO_WORLD, 'total'), load: stats(HELLO_WORLD, 'load') };
    print(
      `Cold start = require of the bundle + first invocation of a real route against DynamoDB Local, fresh Node process per sample, ${samples} samples round-robin; ratios to the hello-world in this run. Goal: <= 1.3.`,
    );
    print(
      `${'function'.padEnd(12)} ${'route'.padEnd(42)} ${'p50 ms'.padStart(8)} ${'p50 x'.padStart(6)} ${'p95 ms'.padStart(8)} ${'p95 x'.padStart(6)} ${'load p50'.padStart(9)} ${'load x'.padStart(7)}`,
    );
    for (const b of bundles) {
      const total = stats(b.name, 'total');
      const load = stats(b.name, 'load');
      const ev = mustGet(calls, b.name, 'calls').event as { httpMethod?: string; path?: string; type?: string };
      const route = ev.httpMethod
        ? `${ev.httpMethod} ${(ev.path ?? '').replace('/api/v1', '')}`
        : ev.type
          ? `${ev.type} authorizer`
          : 'GetItem';
      print(
        `${b.name.padEnd(12)} ${route.padEnd(42)} ${total.p50.toFixed(1).padStart(8)} ${(total.p50 / hello.total.p50).toFixed(2).padStart(6)} ` +
          `${total.p95.toFixed(1).padStart(8)} ${(total.p95 / hello.total.p95).toFixed(2).padStart(6)} ${load.p50.toFixed(1).padStart(9)} ${(load.p50 / hello.load.p50).toFixed(2).padStart(7)}`,
      );
    }
  } finally {
    dispose();
    await dynamo.stop();
  }
}
