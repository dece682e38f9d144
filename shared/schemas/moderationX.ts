/** X: the OAuth 2.0 callback X sends the person back to after they authorize (or decline) the app. */
import * as z from '#shared/zod';
import { defineEndpoint } from '#shared/schemas/endpoint';
import { moderationBase, moderationTag } from './moderation';

// X's values are opaque; bounded so a query cannot be made arbitrarily large. Other parameters are ignored.
const param = z.optional(z.string().check(z.maxLength(2048)));

export const xEndpoints = {
  xOAuthCallback: defineEndpoint({
    operationId: 'xOAuthCallback',
    method: 'GET',
    path: `${moderationBase}/x/callback`,
    tag: moderationTag,
    auth: 'none',
    produces: 'text/html',
    errors: [400, 409, 502, 503],
    summary: "X's OAuth 2.0 redirect: binds the authorizing X account to the community its authorize_url was made for",
    description:
      "No API key: the single-use `state` (issued in the community's `authorize_url`, valid for an hour) names the community. The code is exchanged with its PKCE verifier and the account read from X; " +
      'answers a small HTML page: 200 connected, 400 for an unknown, used or expired state (or a declined authorization), 409 when that X account is bound to another community, 502 when X does not finish the exchange or does not say which account was authorized (open authorize_url again later), 503 when the X app is not configured.',
    query: z.object({ code: param, state: param, error: param, error_description: param }),
  }),
};
