import type { APIGatewayAuthorizerResult, APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { withPorts } from '#shared/adapters/aws';
import { identifyCaller } from '#shared/domain/accounts/callerIdentity';

/**
 * TOKEN authorizer: API key → user. API Gateway caches the answer per key; handlers re-check the
 * key against the account (loadCaller) so a rotated key stops working at once regardless.
 * Throwing "Unauthorized" is how a TOKEN authorizer asks API Gateway for a 401.
 */
export const handler = withPorts(
  'authorizer',
  {},
  async (event: APIGatewayTokenAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const caller = await identifyCaller(event.authorizationToken);
    if (!caller) throw new Error('Unauthorized');
    const [arnPrefix, stage] = event.methodArn.split('/');
    return {
      principalId: caller.userId,
      // The whole API, not just this method: the cached answer is reused across every route.
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${arnPrefix}/${stage}/*` }],
      },
      context: { userId: caller.userId, keyHash: caller.keyHash },
    };
  },
);
