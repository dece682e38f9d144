import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import * as path from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { FUNCTIONS, type FunctionName } from '#infra/functionCatalog';
import { GATEWAY_ERRORS } from '#infra/gatewayResponses';
import { MAX_RECEIVE_COUNT, WORKER_BATCH_SIZE } from '#infra/pipeline';
import { WEBHOOK_BATCH_SIZE, WEBHOOK_MAX_RECEIVE_COUNT } from '#infra/webhookDelivery';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { AUTHORIZER_CACHE_TTL } from '#infra/serviceApi';
import { MAX_DELIVERIES } from '#shared/domain/jobs/pipeline';
import type { EndpointSpec } from '#shared/schemas/endpoint';
import { API_GROUPS, allEndpoints } from '#shared/schemas/groups';
import { GLOBAL_INDEXES, TABLE_KEY, TTL_ATTRIBUTE } from '#shared/store/table';
import { platformSecretNames } from '#shared/platforms/credentials';
import { requiredSettingsOf } from '#shared/adapters/functionWiring';
import { REQUIRED_SETTINGS, type RequiredSetting } from '#shared/config/config';
import { synthesize, type Synthesized } from './synth';

const bundleRequire = createRequire(import.meta.url);

// One real synth for the file: it bundles every function with esbuild.
let s: Synthesized;
// Bundling twelve functions takes over a minute on a busy two-core machine.
beforeAll(() => {
  s = synthesize({ bundle: true });
}, 300_000);

const groupEndpoints = () => Object.entries(API_GROUPS) as [FunctionName, EndpointSpec[]][];
const functionNames = () =>
  [
    ...Object.keys(API_GROUPS),
    'authorizer',
    'jobs-events',
    'worker',
    'dead-letters',
    'renewals',
    'captchas',
    'polls',
    'webhook-sender',
    'phishing-refresh',
  ] as FunctionName[];
const fnId = (name: FunctionName) => s.logicalId(s.stack.functions[name].fn);
const policyOf = (name: FunctionName) => {
  const roleId = s.logicalId(s.stack.functions[name].role);
  const policies = Object.values(s.resources('AWS::IAM::Policy')).filter((p) =>
    p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId),
  );
  return policies.flatMap(
    (p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[],
  );
};
const actionsOf = (name: FunctionName) => policyOf(name).flatMap((st) => [st.Action].flat());
const envOf = (name: FunctionName): Record<string, unknown> =>
  s.resources('AWS::Lambda::Function')[fnId(name)].Properties.Environment.Variables;

describe('table', () => {
  it('has the pk/sk keys, on-demand billing, TTL, point-in-time recovery and is retained', () => {
    s.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        KeySchema: [
          { AttributeName: TABLE_KEY.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEY.sortKey, KeyType: 'RANGE' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      }),
    });
  });

  it('has every global index of shared/store/table.ts, projecting all attributes', () => {
    const [table] = Object.values(s.resources('AWS::DynamoDB::Table'));
    expect(table.Properties.GlobalSecondaryIndexes).toEqual(
      GLOBAL_INDEXES.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
  });
});

describe('functions', () => {
  it('are one per endpoint group plus the authorizer, the SSE stream, the worker, its dead-letter consumer and renewals', () => {
    expect(Object.keys(s.resources('AWS::Lambda::Function')).sort()).toEqual(functionNames().map(fnId).sort());
    expect(functionNames().sort()).toEqual(Object.keys(FUNCTIONS).sort());
  });

  it('run Node.js 22 on arm64 without source maps at start-up and with their own log group with a retention', () => {
    const logGroups = s.resources('AWS::Logs::LogGroup');
    for (const name of functionNames()) {
      const { Properties: fn } = s.resources('AWS::Lambda::Function')[fnId(name)];
      expect(fn, name).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
      });
      // The logger maps the stacks it writes; Node decoding the map at every cold start costs each one.
      expect(fn.Environment?.Variables?.NODE_OPTIONS, name).toBeUndefined();
      const logGroupId = fn.LoggingConfig.LogGroup.Ref;
      expect(logGroups[logGroupId].Properties.RetentionInDays, name).toBe(30);
    }
  });

  it('are bundled by esbuild into one minified file with a source map, dependencies (the AWS SDK included) inside', () => {
    const dependencies = Object.keys(
      JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).dependencies,
    );
    for (const name of functionNames()) {
      const asset = s.resources('AWS::Lambda::Function')[fnId(name)].Metadata['aws:asset:path'] as string;
      const dir = path.join(s.app.outdir, asset);
      expect(existsSync(path.join(dir, 'index.js.map')), name).toBe(true);
      const code = readFileSync(path.join(dir, 'index.js'), 'utf8');
      expect(code.split('\n').length, `${name} is minified`).toBeLessThan(500);
      const required = [...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]).filter((id) => !isBuiltin(id));
      expect(
        required.filter((id) => dependencies.some((dep) => id === dep || id.startsWith(`${dep}/`))),
        name,
      ).toEqual([]);
    }
    const sdkClient = readFileSync(
      path.join(
        s.app.outdir,
        s.resources('AWS::Lambda::Function')[fnId('worker')].Metadata['aws:asset:path'],
        'index.js',
      ),
      'utf8',
    );
    expect(sdkClient).toContain('SendMessageBatch');
  });

  it('that build a Discord invite link get DISCORD_APPLICATION_ID, and only those', () => {
    // Read from the bundles: a function showing communities (an API answer, an MCP tool, a webhook
    // event's data) without the id would show install_url null for every Discord community.
    const buildsInvite = functionNames().filter((name) =>
      readFileSync(
        path.join(
          s.app.outdir,
          s.resources('AWS::Lambda::Function')[fnId(name)].Metadata['aws:asset:path'],
          'index.js',
        ),
        'utf8',
      ).includes('discord.com/oauth2/authorize'),
    );
    expect(buildsInvite).toEqual(expect.arrayContaining(['moderation', 'mcp', 'webhook-sender', 'renewals']));
    const withId = synthesize({ bundle: false, props: { discordApplicationId: '1234567890' } });
    const variables = (name: FunctionName) =>
      withId.resources('AWS::Lambda::Function')[withId.logicalId(withId.stack.functions[name].fn)].Properties
        .Environment.Variables as Record<string, unknown>;
    for (const name of functionNames())
      expect(variables(name).DISCORD_APPLICATION_ID, name).toBe(buildsInvite.includes(name) ? '1234567890' : undefined);
  });

  it('ship the data files their catalogue entry lists beside the bundle, byte for byte: the disposable-domain list beside the worker, the OpenAPI document beside the public function', () => {
    for (const name of functionNames()) {
      const dir = path.join(
        s.app.outdir,
        s.resources('AWS::Lambda::Function')[fnId(name)].Metadata['aws:asset:path'] as string,
      );
      const sideFiles = FUNCTIONS[name].sideFiles ?? [];
      expect(
        readdirSync(dir)
          .filter((file) => !/^index\.js(\.map)?$/.test(file))
          .sort(),
        name,
      ).toEqual(sideFiles.map((file) => path.basename(file)).sort());
      for (const file of sideFiles)
        expect(
          readFileSync(path.join(dir, path.basename(file))).equals(readFileSync(path.join(PROJECT_ROOT, file))),
          `${name} ${file}`,
        ).toBe(true);
    }
    expect(
      functionNames()
        .filter((name) => FUNCTIONS[name].sideFiles?.length)
        .sort(),
    ).toEqual(['public', 'worker']);
  });

  it('load as bundled, and the bundled public function answers GET /api/v1/health as API Gateway invokes it', async () => {
    const load = (name: FunctionName) =>
      bundleRequire(
        path.join(
          s.app.outdir,
          s.resources('AWS::Lambda::Function')[fnId(name)].Metadata['aws:asset:path'],
          'index.js',
        ),
      );
    // Lambda's Node.js runtime provides the `awslambda` global that the streaming function wraps
    // itself with at load; stand in for it (no test here streams).
    const runtime = globalThis as { awslambda?: unknown };
    const saved = runtime.awslambda;
    runtime.awslambda = {
      streamifyResponse: (handler: unknown) => handler,
      HttpResponseStream: { from: (stream: unknown) => stream },
    };
    try {
      for (const name of functionNames()) expect(typeof load(name).handler, name).toBe('function');
    } finally {
      runtime.awslambda = saved;
    }
    const event = {
      httpMethod: 'GET',
      resource: '/api/v1/health',
      path: '/api/v1/health',
      headers: { Host: 'abc123.execute-api.eu-west-1.amazonaws.com' },
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
      stageVariables: null,
      requestContext: {
        requestId: 'req-health',
        stage: 'prod',
        domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
      },
      body: null,
      isBase64Encoded: false,
    };
    const response = await load('public').handler(event, {});
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ status: 'ok' });
    expect(response.headers['x-request-id']).toBe('req-health');
    // The OpenAPI document from the file beside the bundle, with the service's own server filled in.
    const openapi = await load('public').handler(
      { ...event, resource: '/api/v1/openapi.json', path: '/api/v1/openapi.json' },
      {},
    );
    expect(openapi.statusCode).toBe(200);
    expect(JSON.parse(openapi.body)).toMatchObject({
      openapi: '3.1.0',
      servers: [{ url: 'https://abc123.execute-api.eu-west-1.amazonaws.com/prod' }],
      paths: { '/api/v1/chats': expect.anything() },
    });
    // The web console: its page and its script from the file beside the bundle, under its CSP.
    const page = await load('public').handler({ ...event, resource: '/api/v1/console', path: '/api/v1/console' }, {});
    expect([page.statusCode, page.headers['content-type'], page.headers['content-security-policy']]).toEqual([
      200,
      'text/html; charset=utf-8',
      expect.stringContaining("default-src 'self'"),
    ]);
    expect(page.body).toContain('src="console/console.js"');
    const script = await load('public').handler(
      { ...event, resource: '/api/v1/console/console.js', path: '/api/v1/console/console.js' },
      {},
    );
    expect([script.statusCode, script.headers['content-type'], script.body]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      readFileSync(path.join(PROJECT_ROOT, 'functions/public/console.js'), 'utf8'),
    ]);
    await expect(
      load('authorizer').handler({
        type: 'TOKEN',
        authorizationToken: '',
        methodArn: 'arn:aws:execute-api:eu-west-1:1:abc/prod/GET/x',
      }),
    ).rejects.toThrow('Unauthorized');
  });

  it('get TABLE_NAME, PIPELINE_QUEUE_URL and EVENT_BUS_NAME exactly where their catalogue entry asks', () => {
    for (const name of functionNames()) {
      const env = envOf(name);
      const needs = FUNCTIONS[name];
      expect('TABLE_NAME' in env, name).toBe(needs.table !== 'none');
      expect('PIPELINE_QUEUE_URL' in env, name).toBe(needs.queue === true);
      expect('EVENT_BUS_NAME' in env, name).toBe(needs.events === true);
      expect('WEBHOOK_QUEUE_URL' in env, name).toBe(needs.webhookQueue === true);
    }
    expect(
      functionNames()
        .filter((n) => FUNCTIONS[n].queue)
        .sort(),
    ).toEqual(['captchas', 'growth', 'jobs', 'mcp', 'moderation', 'polls', 'renewals', 'worker']);
    expect(
      functionNames()
        .filter((n) => FUNCTIONS[n].events)
        .sort(),
    ).toEqual(['renewals', 'webhook-sender']);
  });

  it('are granted only what they need: writes, queue sends and event publishing where asked, nothing for public', () => {
    for (const name of functionNames()) {
      const actions = actionsOf(name);
      const needs = FUNCTIONS[name];
      expect(actions.includes('dynamodb:PutItem'), name).toBe(needs.table === 'readWrite');
      expect(actions.includes('dynamodb:Query'), name).toBe(needs.table !== 'none');
      expect(actions.includes('sqs:SendMessage'), name).toBe(needs.queue === true || needs.webhookQueue === true);
      expect(actions.includes('events:PutEvents'), name).toBe(needs.events === true);
      expect(
        actions.some((a) => a.startsWith('secretsmanager:')),
        name,
      ).toBe(needs.platformSecret === true);
    }
    expect(actionsOf('public').filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:'))).toEqual([]);
    expect(FUNCTIONS.authorizer.table).toBe('read');
  });

  it('write logs only to their own log group', () => {
    for (const name of functionNames()) {
      const logStatements = policyOf(name).filter((st) => [st.Action].flat().some((a) => a.startsWith('logs:')));
      const ownLogGroup = s.logicalId(s.stack.functions[name].logGroup);
      expect(
        logStatements.map((st) => st.Resource),
        name,
      ).toEqual([{ 'Fn::GetAtt': [ownLogGroup, 'Arn'] }]);
    }
  });
});

/** A queue and its dead-letter queue, by their construct id's prefix: the one with a redrive policy is the main queue. */
function queuePair(prefix: string) {
  const all = Object.fromEntries(
    Object.entries(s.resources('AWS::SQS::Queue')).filter(([id]) => id.startsWith(prefix)),
  );
  const [mainId] = Object.keys(all).filter((id) => all[id].Properties.RedrivePolicy);
  const dlqId = Object.keys(all).find((id) => id !== mainId)!;
  return { all, mainId, dlqId };
}

describe('pipeline', () => {
  const queues = () => queuePair('Pipeline');

  it('parks a message in the dead-letter queue after three failed deliveries', () => {
    const { all, mainId, dlqId } = queues();
    expect(Object.keys(all)).toHaveLength(2);
    expect(all[mainId].Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      maxReceiveCount: MAX_RECEIVE_COUNT,
    });
    expect(MAX_RECEIVE_COUNT).toBe(3);
    // The worker fails the job itself on what it knows is the last delivery.
    expect(MAX_RECEIVE_COUNT).toBe(MAX_DELIVERIES);
    expect(all[dlqId].Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
  });

  it('keeps a message invisible for six worker timeouts and refuses non-TLS access to both queues', () => {
    const { all, mainId } = queues();
    const workerTimeout = s.resources('AWS::Lambda::Function')[fnId('worker')].Properties.Timeout;
    expect(all[mainId].Properties.VisibilityTimeout).toBe(6 * workerTimeout);
    const policies = Object.values(s.resources('AWS::SQS::QueuePolicy'));
    const guarded = policies
      .filter((p) =>
        p.Properties.PolicyDocument.Statement.some(
          (st: any) => st.Effect === 'Deny' && st.Condition?.Bool?.['aws:SecureTransport'] === 'false',
        ),
      )
      .flatMap((p) => p.Properties.Queues.map((q: { Ref: string }) => q.Ref));
    // Every queue of the stack, the webhook queues included.
    expect(guarded.sort()).toEqual(Object.keys(s.resources('AWS::SQS::Queue')).sort());
  });

  it('feeds the worker batches of ten with partial batch responses', () => {
    s.template.resourceCountIs('AWS::Lambda::EventSourceMapping', 3);
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId('worker') },
      EventSourceArn: { 'Fn::GetAtt': [queues().mainId, 'Arn'] },
      BatchSize: WORKER_BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(WORKER_BATCH_SIZE).toBe(10);
  });

  it('hands each dead-lettered message alone to the dead-letters function, which may fail the job', () => {
    const { all, dlqId } = queues();
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId('dead-letters') },
      EventSourceArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      BatchSize: 1,
    });
    const consumer = s.resources('AWS::Lambda::Function')[fnId('dead-letters')].Properties;
    expect(all[dlqId].Properties.VisibilityTimeout).toBe(6 * consumer.Timeout);
    expect(actionsOf('dead-letters')).toEqual(
      expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'dynamodb:UpdateItem']),
    );
    expect(actionsOf('dead-letters')).not.toContain('sqs:SendMessage');
  });
});

describe('outbound webhook delivery', () => {
  const queues = () => queuePair('OutboundWebhookDelivery');

  it('has a queue of its own, with a dead-letter queue, consumed by the sender in batches of ten with partial failures', () => {
    const { all, mainId, dlqId } = queues();
    expect(Object.keys(all)).toHaveLength(2);
    expect(all[mainId].Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      maxReceiveCount: WEBHOOK_MAX_RECEIVE_COUNT,
    });
    const senderTimeout = s.resources('AWS::Lambda::Function')[fnId('webhook-sender')].Properties.Timeout;
    expect(all[mainId].Properties.VisibilityTimeout).toBe(6 * senderTimeout);
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId('webhook-sender') },
      EventSourceArn: { 'Fn::GetAtt': [mainId, 'Arn'] },
      BatchSize: WEBHOOK_BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('lets only the event producers, the endpoints API, the sweep and the sender send to it', () => {
    const { mainId } = queues();
    const senders = functionNames().filter((name) => envOf(name).WEBHOOK_QUEUE_URL);
    expect(senders.sort()).toEqual([
      'growth',
      'intelligence',
      'jobs',
      'mcp',
      'moderation',
      'outbound',
      'renewals',
      'webhook-sender',
      'worker',
    ]);
    for (const name of senders) expect(envOf(name).WEBHOOK_QUEUE_URL, name).toEqual({ Ref: mainId });
    // Rendered events link to the deployed API.
    expect(envOf('webhook-sender').PUBLIC_BASE_URL).toBeDefined();
  });
});

describe('schedule and events', () => {
  it('runs the renewals function every 5 minutes', () => {
    s.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId('renewals'), 'Arn'] } })],
    });
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [fnId('renewals'), 'Arn'] },
      Principal: 'events.amazonaws.com',
    });
  });

  it('runs the captcha sweep every minute, so a 2-minute captcha timeout holds within a minute', () => {
    s.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId('captchas'), 'Arn'] } })],
    });
  });

  it('queues the polls of the polled platforms every minute, from a function that only reads the table and sends to the queue', () => {
    s.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId('polls'), 'Arn'] } })],
    });
    expect(envOf('polls').PIPELINE_QUEUE_URL).toBeDefined();
    expect(FUNCTIONS.polls.platformSecret).toBe(false);
  });

  it('refreshes the phishing list every 6 hours, from a function that writes the table and holds no platform secret', () => {
    s.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(6 hours)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId('phishing-refresh'), 'Arn'] } })],
    });
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [fnId('phishing-refresh'), 'Arn'] },
      Principal: 'events.amazonaws.com',
    });
    expect(actionsOf('phishing-refresh')).toContain('dynamodb:BatchWriteItem');
    expect(FUNCTIONS['phishing-refresh']).toMatchObject({ table: 'readWrite', queue: false, platformSecret: false });
    // The published list unless the operator names another source.
    expect(envOf('phishing-refresh').PHISHING_LIST_URL).toBeUndefined();
    const other = synthesize({ bundle: false, props: { phishingListUrl: 'https://lists.example.com/config.json' } });
    const fn = other.resources('AWS::Lambda::Function')[other.logicalId(other.stack.functions['phishing-refresh'].fn)];
    expect(fn.Properties.Environment.Variables.PHISHING_LIST_URL).toBe('https://lists.example.com/config.json');
  });

  it('the platform secret names the Reddit credentials', () => {
    const [secret] = Object.values(s.resources('AWS::SecretsManager::Secret')) as {
      Properties: { GenerateSecretString: { SecretStringTemplate: string } };
    }[];
    const names = Object.keys(JSON.parse(secret.Properties.GenerateSecretString.SecretStringTemplate));
    expect(names).toEqual(
      expect.arrayContaining([
        'REDDIT_CLIENT_ID',
        'REDDIT_CLIENT_SECRET',
        'REDDIT_REFRESH_TOKEN',
        'REDDIT_USERNAME',
        'REDDIT_USER_AGENT',
      ]),
    );
  });

  it('the platform secret is read at run time by exactly the functions that call the platforms, through the secrets port (no layer), never in env', () => {
    const secretId = Object.keys(s.resources('AWS::SecretsManager::Secret')).find((id) =>
      id.startsWith('PlatformCredentials'),
    );
    expect(secretId).toBeDefined();
    for (const name of functionNames()) {
      const env = envOf(name);
      const wants = FUNCTIONS[name].platformSecret === true;
      expect(env.PLATFORM_SECRET_ARN, name).toEqual(wants ? { Ref: secretId } : undefined);
      for (const secretName of platformSecretNames()) expect(env[secretName], name).toBeUndefined();
      const layers = s.resources('AWS::Lambda::Function')[fnId(name)].Properties.Layers ?? [];
      expect(layers, name).toEqual([]);
      const reads = policyOf(name).filter(
        (st) =>
          [st.Action].flat().includes('secretsmanager:GetSecretValue') &&
          JSON.stringify(st.Resource) === JSON.stringify({ Ref: secretId }),
      );
      expect(
        reads.map((st) => st.Resource),
        name,
      ).toEqual(wants ? [{ Ref: secretId }] : []);
    }
    expect(
      functionNames()
        .filter((n) => FUNCTIONS[n].platformSecret)
        .sort(),
    ).toEqual(['moderation', 'worker']);
  });

  it("the providers' secret holds every provider's key, blank, and only the worker reads it (PROVIDER_SECRET_ARN), never in env", () => {
    const secrets = s.resources('AWS::SecretsManager::Secret');
    const secretId = Object.keys(secrets).find((id) => id.startsWith('ProviderCredentials'));
    expect(secretId).toBeDefined();
    expect(JSON.parse(secrets[secretId as string].Properties.SecretString)).toEqual({
      HUNTER_API_KEY: '',
      ZEROBOUNCE_API_KEY: '',
    });
    for (const name of functionNames()) {
      const env = envOf(name);
      const wants = name === 'worker';
      expect(FUNCTIONS[name].providerSecret === true, name).toBe(wants);
      expect(env.PROVIDER_SECRET_ARN, name).toEqual(wants ? { Ref: secretId } : undefined);
      expect(env.HUNTER_API_KEY, name).toBeUndefined();
      const reads = policyOf(name).filter(
        (st) =>
          [st.Action].flat().includes('secretsmanager:GetSecretValue') &&
          JSON.stringify(st.Resource) === JSON.stringify({ Ref: secretId }),
      );
      expect(reads.length > 0, name).toBe(wants);
    }
  });

  it('every function is given the settings its wiring requires at cold start (shared/config/config.ts checks them in Lambda)', () => {
    for (const name of functionNames()) {
      const env = envOf(name);
      for (const setting of requiredSettingsOf(name)) expect(env[setting], `${name} ${setting}`).toBeDefined();
      // And none it is not wired to: a setting present without its port would be a grant without a reader.
      for (const setting of Object.keys(REQUIRED_SETTINGS) as RequiredSetting[])
        if (!requiredSettingsOf(name).includes(setting)) expect(env[setting], `${name} ${setting}`).toBeUndefined();
    }
  });

  it("the platform secret's template names every credential of every platform module, Crisp's included; Telegram's webhook secret is generated", () => {
    const [secret] = Object.values(s.resources('AWS::SecretsManager::Secret'));
    const generated = secret.Properties.GenerateSecretString;
    expect(generated.GenerateStringKey).toBe('TELEGRAM_WEBHOOK_SECRET');
    const template = JSON.parse(generated.SecretStringTemplate) as Record<string, string>;
    expect(Object.keys(template).sort()).toEqual(
      platformSecretNames()
        .filter((n) => n !== 'TELEGRAM_WEBHOOK_SECRET')
        .sort(),
    );
    expect(template).toMatchObject({
      CRISP_PLUGIN_ID: '',
      CRISP_TOKEN_IDENTIFIER: '',
      CRISP_TOKEN_KEY: '',
      CRISP_HOOK_SECRET: '',
    });
  });

  it('has a domain event bus that only the publishers may put events on', () => {
    const [busId] = Object.keys(s.resources('AWS::Events::EventBus'));
    for (const name of functionNames()) {
      expect(envOf(name).EVENT_BUS_NAME, name).toEqual(FUNCTIONS[name].events ? { Ref: busId } : undefined);
      const putEvents = policyOf(name).filter((st) => st.Action === 'events:PutEvents');
      expect(
        putEvents.map((st) => st.Resource),
        name,
      ).toEqual(FUNCTIONS[name].events ? [{ 'Fn::GetAtt': [busId, 'Arn'] }] : []);
    }
  });
});

describe('REST API', () => {
  /** Each method with its full resource path, rebuilt from the Resource tree. */
  const methods = () => {
    const resources = s.resources('AWS::ApiGateway::Resource');
    const pathOf = (id: string): string => {
      const { ParentId, PathPart } = resources[id].Properties;
      return `${ParentId.Ref ? pathOf(ParentId.Ref) : ''}/${PathPart}`;
    };
    return Object.values(s.resources('AWS::ApiGateway::Method')).map(
      ({ Properties: p }): Record<string, any> => ({ ...p, path: pathOf(p.ResourceId.Ref) }),
    );
  };
  const authorizerId = () => Object.keys(s.resources('AWS::ApiGateway::Authorizer'))[0];

  it('has exactly one method per endpoint spec in API_GROUPS', () => {
    const specs = allEndpoints();
    expect(specs.length).toBeGreaterThan(0);
    expect(
      methods()
        .map((m) => `${m.HttpMethod} ${m.path}`)
        .sort(),
    ).toEqual(specs.map((e) => `${e.method} ${e.path}`).sort());
  });

  it("routes every method to its group's function, guarded by the authorizer exactly when its spec needs a key", () => {
    const all = methods();
    for (const [group, specs] of groupEndpoints()) {
      for (const spec of specs) {
        const method = all.find((m) => m.HttpMethod === spec.method && m.path === spec.path)!;
        const target: FunctionName = spec.streaming ? 'jobs-events' : group;
        expect(method.OperationName).toBe(spec.operationId);
        expect(method.Integration.Type, spec.operationId).toBe('AWS_PROXY');
        expect(JSON.stringify(method.Integration.Uri), spec.operationId).toContain(`"${fnId(target)}"`);
        if (spec.auth === 'api_key') {
          expect(method).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId() } });
        } else {
          expect(method.AuthorizationType, spec.operationId).toBe('NONE');
          expect(method.AuthorizerId).toBeUndefined();
        }
      }
    }
  });

  it('streams (STREAM transfer mode) exactly the streaming endpoints', () => {
    for (const method of methods()) {
      const spec: EndpointSpec = allEndpoints().find((e) => e.method === method.HttpMethod && e.path === method.path)!;
      expect(method.Integration.ResponseTransferMode, spec.operationId).toBe(spec.streaming ? 'STREAM' : undefined);
    }
  });

  it('checks keys with a TOKEN authorizer on the Authorization header, cached for 300 s', () => {
    s.template.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    s.template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'TOKEN',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 300,
    });
    expect(AUTHORIZER_CACHE_TTL.toSeconds()).toBe(300);
    const [authorizer] = Object.values(s.resources('AWS::ApiGateway::Authorizer'));
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(`"${fnId('authorizer')}"`);
  });

  it('lets API Gateway invoke each function with one permission for the whole API', () => {
    const [apiId] = Object.keys(s.resources('AWS::ApiGateway::RestApi'));
    const permissions = Object.values(s.resources('AWS::Lambda::Permission')).filter(
      (p) => p.Properties.Principal === 'apigateway.amazonaws.com',
    );
    const servingGroups = groupEndpoints()
      .filter(([, specs]) => specs.some((e) => !e.streaming))
      .map(([group]) => group);
    for (const name of servingGroups) {
      const own = permissions.filter((p) => p.Properties.FunctionName['Fn::GetAtt']?.[0] === fnId(name));
      expect(own, name).toHaveLength(1);
      expect(JSON.stringify(own[0].Properties.SourceArn)).toContain(`"${apiId}"`);
    }
  });

  it('logs access as JSON to its own log group and throttles by default', () => {
    const [stage] = Object.values(s.resources('AWS::ApiGateway::Stage'));
    const accessLogs = s.logicalId(s.stack.api.accessLogs);
    expect(stage.Properties.AccessLogSetting.DestinationArn).toEqual({ 'Fn::GetAtt': [accessLogs, 'Arn'] });
    expect(JSON.parse(stage.Properties.AccessLogSetting.Format)).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
    });
    expect(stage.Properties.MethodSettings).toEqual([
      expect.objectContaining({
        HttpMethod: '*',
        ResourcePath: '/*',
        ThrottlingRateLimit: 50,
        ThrottlingBurstLimit: 100,
        LoggingLevel: 'ERROR',
        DataTraceEnabled: false,
      }),
    ]);
    s.template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });

  it("answers API Gateway's own errors with the contract's error body", () => {
    const responses = Object.values(s.resources('AWS::ApiGateway::GatewayResponse')).map((r) => r.Properties);
    expect(responses.map((r) => r.ResponseType).sort()).toEqual(GATEWAY_ERRORS.map((e) => e.type.responseType).sort());
    const byType = (type: string) => responses.find((r) => r.ResponseType === type)!;
    // API Gateway renders the template; stand in for its variables and read the body a client gets.
    const render = (type: string) =>
      JSON.parse(
        byType(type)
          .ResponseTemplates['application/json'].replace('$context.requestId', 'req-1')
          .replace('$context.error.messageString', '"Some gateway message"'),
      );
    const expected: [string, string | undefined, string][] = [
      ['UNAUTHORIZED', '401', 'unauthorized'],
      ['ACCESS_DENIED', '401', 'unauthorized'],
      ['MISSING_AUTHENTICATION_TOKEN', '404', 'not_found'],
      ['REQUEST_TOO_LARGE', '413', 'payload_too_large'],
      ['THROTTLED', '429', 'rate_limited'],
      ['DEFAULT_4XX', undefined, 'bad_request'],
      ['DEFAULT_5XX', undefined, 'internal_error'],
    ];
    for (const [type, status, code] of expected) {
      expect(byType(type).StatusCode, type).toBe(status);
      const body = render(type);
      expect(body, type).toEqual({ error: { code, message: expect.any(String) }, request_id: 'req-1' });
      expect(byType(type).ResponseParameters['gatewayresponse.header.x-request-id']).toBe('context.requestId');
    }
    expect(render('DEFAULT_5XX').error.message).toBe('An internal error occurred.');
    expect(byType('UNAUTHORIZED').ResponseParameters['gatewayresponse.header.WWW-Authenticate']).toBe("'Bearer'");
    expect(byType('THROTTLED').ResponseParameters['gatewayresponse.header.Retry-After']).toBe("'1'");
  });
});

describe('outputs', () => {
  it('publish the API base URL under /api/v1 and the table name', () => {
    const outputs = s.template.toJSON().Outputs;
    expect(JSON.stringify(outputs.ApiBaseUrl.Value)).toContain('/api/v1');
    expect(outputs.TableName.Value).toEqual({ Ref: s.logicalId(s.stack.table) });
  });
});
