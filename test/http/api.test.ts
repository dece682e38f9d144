import { describe, expect, it, vi } from 'vitest';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import * as z from 'zod';
import { createApiHandler, route } from '../../shared/http/api';
import { defineEndpoint } from '../../shared/http/endpoint';
import { createAccount } from '../../shared/domain/accounts/accounts';
import { hashApiKey } from '../../shared/domain/accounts/apiKeys';
import { handler as authorizer } from '../../functions/authorizer/handler';
import { uuidv7 } from '../../shared/ids';

const secretRoute = defineEndpoint({ operationId: 'boom', method: 'POST', path: '/api/v1/boom', summary: 'fails', tag: 't', auth: 'none', body: z.strictObject({ n: z.number().int() }) });
const paidRoute = defineEndpoint({ operationId: 'paid', method: 'GET', path: '/api/v1/paid', summary: 'paid', tag: 't', auth: 'api_key', paid: true });

const handler = createApiHandler([
  route(secretRoute, async ({ body }) => {
    if (body.n === 0) throw new Error('ddb://internal-table-arn exploded at line 42');
    return { doubled: body.n * 2 };
  }),
  route(paidRoute, async ({ user }) => ({ id: user.id })),
]);

const context = { getRemainingTimeInMillis: () => 10_000 } as Context;
function event(method: string, resource: string, body: string | null, authorizer: Record<string, string> | null = null): APIGatewayProxyEvent {
  return {
    resource, path: resource, httpMethod: method, headers: { Host: 'localhost' }, multiValueHeaders: {}, queryStringParameters: null,
    multiValueQueryStringParameters: null, pathParameters: null, stageVariables: null, body, isBase64Encoded: false,
    requestContext: { requestId: 'req-1', authorizer, stage: 'prod' } as unknown as APIGatewayProxyEvent['requestContext'],
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
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await handler(event('POST', '/api/v1/boom', '{"n":0}'), context);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('exploded'));
    log.mockRestore();
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('exploded');
    expect(JSON.parse(res.body)).toEqual({ error: { code: 'internal_error', message: 'An internal error occurred.' }, request_id: 'req-1' });
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
    const res = await handler(event('GET', '/api/v1/paid', null, { userId: pro.user.id, keyHash: hashApiKey(`oik_${'a'.repeat(40)}`) }), context);
    expect(res.statusCode).toBe(401);
    expect(res.headers?.['WWW-Authenticate']).toBe('Bearer');
  });
});

describe('the TOKEN authorizer', () => {
  const methodArn = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/api/v1/users/me';

  it('allows a known key for the whole API and passes the user and key hash as context', async () => {
    const { user, apiKey } = await createAccount({ email: `auth-${uuidv7()}@example.com` });
    const result = await authorizer({ type: 'TOKEN', authorizationToken: `Bearer ${apiKey}`, methodArn });
    expect(result.principalId).toBe(user.id);
    expect(result.context).toEqual({ userId: user.id, keyHash: hashApiKey(apiKey) });
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow', Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*' });
  });

  it('asks API Gateway for a 401 on a missing, malformed or unknown key', async () => {
    for (const token of ['', 'Bearer nope', `Bearer oik_${'z'.repeat(40)}`]) {
      await expect(authorizer({ type: 'TOKEN', authorizationToken: token, methodArn })).rejects.toThrow('Unauthorized');
    }
  });
});
