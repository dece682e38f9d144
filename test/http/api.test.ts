import { describe, expect, it, vi } from 'vitest';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import * as z from 'zod';
import { createApiHandler, lowerCaseHeaders } from '#shared/http/api';
import { defineEndpoint } from '#shared/schemas/endpoint';
import { createAccount } from '#shared/domain/accounts/accounts';
import { hashApiKey } from '#shared/domain/accounts/apiKeys';
import { handler as authorizer } from '#functions/authorizer/handler';
import { uuidv7 } from '#shared/ids';

const secretRoute = defineEndpoint({
  operationId: 'boom',
  method: 'POST',
  path: '/api/v1/boom',
  summary: 'fails',
  tag: 't',
  auth: 'none',
  body: z.strictObject({ n: z.number().int() }),
});
const echoRoute = defineEndpoint({
  operationId: 'echo',
  method: 'POST',
  path: '/api/v1/echo',
  summary: 'echoes',
  tag: 't',
  auth: 'none',
  body: z.strictObject({ data: z.unknown() }),
});
const paidRoute = defineEndpoint({
  operationId: 'paid',
  method: 'GET',
  path: '/api/v1/paid',
  summary: 'paid',
  tag: 't',
  auth: 'api_key',
  paid: true,
});

const endpoints = { secretRoute, paidRoute, echoRoute };
const handler = createApiHandler(endpoints, {
  secretRoute: async ({ body }) => {
    if (body.n === 0) throw new Error('ddb://internal-table-arn exploded at line 42');
    return { doubled: body.n * 2 };
  },
  paidRoute: async ({ user }) => ({ id: user.id }),
  echoRoute: async ({ body }) => ({ data: body.data }),
});

// The contract binds the code: these do not compile (npm test type-checks first). Never called, only type-checked.
// biome-ignore lint/correctness/noUnusedVariables: its body is the test (each @ts-expect-error must stay an error)
function contractChecks() {
  const typed = z.object({ id: z.string() });
  const withResponse = defineEndpoint({
    operationId: 'typed',
    method: 'GET',
    path: '/api/v1/typed',
    summary: 'typed',
    tag: 't',
    auth: 'none',
    response: typed,
  });
  // @ts-expect-error a spec without an implementation
  createApiHandler({ secretRoute, withResponse }, { secretRoute: async () => ({}) });
  // @ts-expect-error an implementation answering another shape than the spec's response
  createApiHandler({ withResponse }, { withResponse: async () => ({ id: 42 }) });
  // @ts-expect-error an implementation without a spec
  createApiHandler({ withResponse }, { withResponse: async () => ({ id: 'a' }), stray: async () => ({}) });
}

const context = { getRemainingTimeInMillis: () => 10_000 } as Context;
function event(
  method: string,
  resource: string,
  body: string | null,
  authorizer: Record<string, string> | null = null,
): APIGatewayProxyEvent {
  return {
    resource,
    path: resource,
    httpMethod: method,
    headers: { Host: 'localhost' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: {
      requestId: 'req-1',
      authorizer,
      stage: 'prod',
    } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

describe('the shared handler chain', () => {
  it('answers a handled request with JSON and the request id', async () => {
    const res = await handler(event('POST', '/api/v1/boom', '{"n":21}'), context);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ doubled: 42 });
    expect(res.headers?.['x-request-id']).toBe('req-1');
  });

  it('turns an unexpected error into 500 internal_error without leaking its text (the log keeps it)', async () => {
    const log = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const res = await handler(event('POST', '/api/v1/boom', '{"n":0}'), context);
    const lines = log.mock.calls.map(([chunk]) => String(chunk));
    log.mockRestore();
    // One structured error line: the message and stack stay in the log, with the request id and route.
    const line = JSON.parse(lines.find((l) => l.includes('exploded'))!);
    expect(line).toMatchObject({
      level: 'ERROR',
      message: 'request failed',
      requestId: 'req-1',
      route: 'POST /api/v1/boom',
      error: { message: expect.stringContaining('exploded') },
    });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('exploded');
    expect(JSON.parse(res.body)).toEqual({
      error: { code: 'internal_error', message: 'An internal error occurred.' },
      request_id: 'req-1',
    });
  });

  it('maps validation failures to 400 with paths, including unknown properties', async () => {
    const res = await handler(event('POST', '/api/v1/boom', '{"n":1.5,"extra":true}'), context);
    expect(res.statusCode).toBe(400);
    const details = JSON.parse(res.body).error.details as { path: string; message: string }[];
    expect(details.map((d) => d.path).sort()).toEqual(['body', 'n']);
    expect(details.find((d) => d.path === 'body')?.message).toBe('Unknown property: extra');
  });

  it('answers an unrouted method or resource with 404', async () => {
    expect((await handler(event('GET', '/api/v1/boom', null), context)).statusCode).toBe(404);
  });

  it('refuses a paid endpoint to a developer account (403 subscription_required) and serves an active pro one', async () => {
    const dev = await createAccount({ email: `dev-${uuidv7()}@example.com` });
    const pro = await createAccount({ email: `pro-${uuidv7()}@example.com`, tier: 'pro' });
    const asCaller = (a: typeof dev) => ({ userId: a.user.id, keyHash: hashApiKey(a.apiKey) });
    const refused = await handler(event('GET', '/api/v1/paid', null, asCaller(dev)), context);
    expect(refused.statusCode).toBe(403);
    expect(JSON.parse(refused.body).error.code).toBe('subscription_required');
    const served = await handler(event('GET', '/api/v1/paid', null, asCaller(pro)), context);
    expect(JSON.parse(served.body)).toEqual({ id: pro.user.id });
  });

  it('refuses a cached authorizer answer for a key that is no longer the account key (401)', async () => {
    const pro = await createAccount({ email: `stale-${uuidv7()}@example.com`, tier: 'pro' });
    const res = await handler(
      event('GET', '/api/v1/paid', null, { userId: pro.user.id, keyHash: hashApiKey(`oik_${'a'.repeat(40)}`) }),
      context,
    );
    expect(res.statusCode).toBe(401);
    expect(res.headers?.['WWW-Authenticate']).toBe('Bearer');
  });
});

describe('hostile input through the Lambda handler', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it('refuses a body nested deeper than 64 levels before anything serialises it, and takes 64', async () => {
    expect((await handler(event('POST', '/api/v1/echo', `{"data":${nested(63)}}`), context)).statusCode).toBe(200);
    for (const levels of [64, 50_000]) {
      const res = await handler(event('POST', '/api/v1/echo', `{"data":${nested(levels)}}`), context);
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body).error).toEqual({
        code: 'validation_error',
        message: 'The request body nests deeper than 64 levels.',
        details: [{ path: 'body', message: 'Nested deeper than 64 levels' }],
      });
    }
  });

  it('refuses a __proto__ key at any depth, which schema parsing would drop silently', async () => {
    const res = await handler(
      event('POST', '/api/v1/echo', '{"data":[{"ok":1},{"__proto__":{"admin":true}}]}'),
      context,
    );
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).error.details).toEqual([
      { path: 'data.1.__proto__', message: 'Reserved property name: __proto__' },
    ]);
  });

  it('keeps header names inherited from Object.prototype as plain keys', () => {
    // API Gateway's event is parsed JSON: a header named __proto__ arrives as an own property.
    const headers = lowerCaseHeaders(JSON.parse('{"__proto__":"a","Constructor":"b","toString":"c"}'));
    expect(Object.entries(headers).sort()).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
      ['tostring', 'c'],
    ]);
    expect(headers.accept).toBeUndefined();
  });
});

describe('the TOKEN authorizer', () => {
  const methodArn = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/api/v1/users/me';

  it('allows a known key for the whole API and passes the user and key hash as context', async () => {
    const { user, apiKey } = await createAccount({ email: `auth-${uuidv7()}@example.com` });
    const result = await authorizer({ type: 'TOKEN', authorizationToken: `Bearer ${apiKey}`, methodArn });
    expect(result.principalId).toBe(user.id);
    expect(result.context).toEqual({ userId: user.id, keyHash: hashApiKey(apiKey) });
    expect(result.policyDocument.Statement[0]).toMatchObject({
      Effect: 'Allow',
      Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*',
    });
  });

  it('asks API Gateway for a 401 on a missing, malformed or unknown key', async () => {
    for (const token of ['', 'Bearer nope', `Bearer oik_${'z'.repeat(40)}`]) {
      await expect(authorizer({ type: 'TOKEN', authorizationToken: token, methodArn })).rejects.toThrow('Unauthorized');
    }
  });
});
