/**
 * How an X account is given to a community: OAuth 2.0 authorization code with PKCE (S256). Each
 * authorize URL carries a fresh `state` bound to one community; only its SHA-256 is stored, with the
 * code verifier and the exact redirect_uri, for an hour, and it can be used once. The callback
 * exchanges the code as the confidential client, asks X which account granted it, seals the tokens
 * (they are never logged or returned) and binds the account to the community.
 */
import { createHash, randomBytes } from 'node:crypto';
import { now } from '#shared/adapters/ports';
import { XApi, type XAnswer, type XTokenAnswer, type XUser } from './api';
import { randomToken, sha256Hex } from '#shared/ids';
import { getCommunity, stillOfTypeItem, type CommunityRecord } from '#shared/store/communitiesRepo';
import { retryingConflicts, TransactionConditionError, writeTogether } from '#shared/store/transactions';
import { platformPlaceIs } from '#shared/store/platformRepo';
import {
  consumeOAuthState,
  getXAccount,
  putOAuthState,
  putXCursor,
  xGrantItem,
  type XAccountRecord,
} from '#shared/platforms/x/xRepo';
import type { ModerationCore, PlaceField } from '#shared/platforms/contract';
import { UNPAID_ACTIVATION } from '#shared/platforms/unpaidActivation';
import { issuedPair, revokeStoredXGrant, revokeXGrant, sealXTokens, xCredentials } from './tokens';

export const X_SCOPES = ['tweet.read', 'users.read', 'tweet.moderate.write', 'mute.write', 'offline.access'] as const;
export const X_CALLBACK_PATH = '/integrations/moderation/x/callback';
/** Long enough to read X's consent screen, short enough that a leaked link soon names nothing. */
export const OAUTH_STATE_TTL_SECONDS = 60 * 60;

/** RFC 7636: a 43-character verifier of 32 random bytes, its challenge the base64url SHA-256. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** `apiBaseUrl` is the service's own public base (…/api/v1), never taken from a request header. */
export const xRedirectUri = (apiBaseUrl: string): string => `${apiBaseUrl.replace(/\/+$/, '')}${X_CALLBACK_PATH}`;

/**
 * A fresh authorize URL for an X community (null for other types, or while the operator has not set
 * X_CLIENT_ID and X_CLIENT_SECRET). Each call stores one new single-use state.
 */
export async function xAuthorizeUrl(
  community: Pick<CommunityRecord, 'id' | 'userId' | 'type'>,
  apiBaseUrl: string,
): Promise<string | null> {
  if (community.type !== 'x') return null;
  const credentials = await xCredentials();
  if (!credentials.configured) return null;
  const state = randomToken(43);
  const { verifier, challenge } = pkcePair();
  const redirectUri = xRedirectUri(apiBaseUrl);
  const expiresAt = new Date(now().getTime() + OAUTH_STATE_TTL_SECONDS * 1000).toISOString();
  await putOAuthState(sha256Hex(state), {
    communityId: community.id,
    userId: community.userId,
    verifier,
    redirectUri,
    expiresAt,
  });
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: credentials.clientId,
    redirect_uri: redirectUri,
    scope: X_SCOPES.join(' '),
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return `${credentials.authorizeUrl}?${query.toString().replace(/\+/g, '%20')}`;
}

/** What the callback shows the person who authorized: a status and a short sentence. */
export interface CallbackPage {
  status: number;
  title: string;
  message: string;
  /** The community now bound (for the caller's log line); never a token. */
  communityId?: string;
}

const page = (status: number, title: string, message: string, communityId?: string): CallbackPage => ({
  status,
  title,
  message,
  ...(communityId ? { communityId } : {}),
});

const ANOTHER_ACCOUNT_CONNECTED =
  'Another X account was connected to this community at the same moment, and it stays connected. Open the authorize_url of your community again to connect this one instead.';
/** Where the platform record names the connected account (the X module's bound place). */
const X_BOUND_FIELD: PlaceField = 'boundId';

const COMMUNITY_GONE = 'The community this link was made for no longer exists or is no longer an X community.';

const STATE_REFUSED: Record<'unknown' | 'used' | 'expired', string> = {
  unknown: 'This authorization link is not one we issued. Open the authorize_url of your community again.',
  used: 'This authorization link was already used. Open the authorize_url of your community again to get a new one.',
  expired: 'This authorization link has expired. Open the authorize_url of your community again to get a new one.',
};

/** Claims the X account for the community (an account is moderated by one community at a time). */
export type BindXAccount = (
  community: CommunityRecord,
  account: XUser,
) => Promise<{ ok: true } | { ok: false; status: number; message: string }>;

export const bindXAccount =
  (core: ModerationCore): BindXAccount =>
  async (community, account) =>
    (await core.bindModeratedPlace(community, account.id)) === 'bound'
      ? { ok: true }
      : {
          ok: false,
          status: 409,
          message: `@${account.username} is already moderated by another community. Remove it there (or delete that community) first.`,
        };

/**
 * The callback: `code` and `state` as X sent them (or `error` when the person declined). Answers the
 * page to show; 400 for a state that is unknown, used or expired.
 */
export async function completeXAuthorization(
  query: { code?: string; state?: string; error?: string },
  core: ModerationCore,
  bind: BindXAccount = bindXAccount(core),
): Promise<CallbackPage> {
  if (!query.state) return page(400, 'Authorization failed', STATE_REFUSED.unknown);
  const consumed = await consumeOAuthState(sha256Hex(query.state), now().toISOString());
  if (consumed.outcome !== 'ok') return page(400, 'Authorization failed', STATE_REFUSED[consumed.outcome]);
  const { state } = consumed;
  if (query.error || !query.code)
    return page(
      400,
      'Authorization declined',
      'X did not grant access, so nothing was connected. Open the authorize_url of your community again to retry.',
    );
  const credentials = await xCredentials();
  if (!credentials.configured)
    return page(503, 'X is not configured', 'The operator of this service has not set up its X app yet.');
  const stored = await getCommunity(state.userId, state.communityId, true);
  // A community from before every type had to be bound gets its activation token first.
  const community = stored && (await core.withActivationToken(stored));
  if (community?.type !== 'x') return page(400, 'Authorization failed', COMMUNITY_GONE);
  // Before any token is asked for: an expired community holds no grant.
  if (community.billingState === 'expired') return page(400, 'Not connected', UNPAID_ACTIVATION.expired);

  const api = new XApi(credentials.apiBase);
  const exchanged = await api.token(credentials.clientId, credentials.clientSecret, {
    grant_type: 'authorization_code',
    code: query.code,
    redirect_uri: state.redirectUri,
    code_verifier: state.verifier,
  });
  if (!exchanged.ok) {
    return exchanged.status >= 400 && exchanged.status < 500 && exchanged.status !== 429
      ? page(
          400,
          'Authorization failed',
          'X did not accept the authorization code. Open the authorize_url of your community again.',
        )
      : page(
          502,
          'X is not answering',
          'X could not be reached to finish the authorization. Open the authorize_url of your community again in a few minutes.',
        );
  }
  const tokens = exchanged.result as XTokenAnswer;
  const me = await api.request(tokens.access_token, { method: 'GET', route: '/2/users/me' });
  const account = me.ok ? (me.result as XAnswer<XUser>).data : undefined;
  if (!account?.id || !account.username)
    return page(
      502,
      'X is not answering',
      'X did not say which account was authorized. Open the authorize_url of your community again.',
    );

  const bound = await bind(community, account);
  if (!bound.ok) return page(bound.status, 'Not connected', bound.message);
  const pair = issuedPair(tokens);
  const written = await writeGrant(community, {
    accountId: account.id,
    username: account.username,
    sealed: await sealXTokens(community.id, pair),
    expiresAt: new Date(now().getTime() + tokens.expires_in * 1000).toISOString(),
    updatedAt: now().toISOString(),
  });
  // Another account's callback bound the community after this one: it stays connected, and these tokens,
  // which no one will use, end at X.
  if (written === 'rebound') {
    await revokeXGrant(credentials, pair);
    return page(409, 'Not connected', ANOTHER_ACCOUNT_CONNECTED);
  }
  // Deleted, retyped or expired during the exchange: its own clean-up ran before this binding and grant
  // existed, so both are let go here rather than kept for a community that will never use them.
  if (written === 'community gone') {
    await core.releaseModeratedPlace(community, account.id);
    await revokeXGrant(credentials, pair);
    const current = await getCommunity(community.userId, community.id, true);
    return page(400, 'Not connected', current?.type === 'x' ? UNPAID_ACTIVATION.expired : COMMUNITY_GONE);
  }
  const { replaced } = written;
  if (replaced && replaced.accountId !== account.id) {
    // Another account's replies start afresh (its newest page), not after the old account's newest reply.
    await putXCursor(community.id, {});
    // The old account is no longer moderated here and its tokens are no longer kept: its grant ends at X.
    // (A grant of the same account is left to expire: X may end every grant of the account with it.)
    await revokeStoredXGrant(credentials, community.id, replaced);
  }
  if (!community.activatedAt && community.activationToken)
    await core.markCommunityActivated(community, community.activationToken);
  return page(
    200,
    'X account connected',
    community.billingState === 'suspended'
      ? `${UNPAID_ACTIVATION.suspended(`@${account.username}`)} You can close this page.`
      : `@${account.username} is now moderated by "${community.name}". You can close this page.`,
    community.id,
  );
}

/** Tries at most this many times when token refreshes keep replacing the grant the callback read. */
const GRANT_WRITE_ATTEMPTS = 5;

/**
 * Writes the new grant together with a check that the community is still an X community that has not
 * expired, and still bound to the grant's account (another account's callback may have bound it since). Answers the grant it replaced (read just before, and still the one there when written), or
 * that the community is gone. Another write on the community item at the same moment is tried again.
 */
async function writeGrant(
  community: CommunityRecord,
  grant: Parameters<typeof xGrantItem>[1],
): Promise<{ replaced: XAccountRecord | undefined } | 'community gone' | 'rebound'> {
  for (let attempt = 1; ; attempt++) {
    const replaced = await getXAccount(community.id);
    const items = {
      community: stillOfTypeItem(community, 'x'),
      binding: platformPlaceIs(community.id, X_BOUND_FIELD, grant.accountId),
      grant: xGrantItem(community.id, grant, replaced?.version ?? null),
    };
    try {
      await retryingConflicts(() => writeTogether(items));
      return { replaced };
    } catch (err) {
      if (!(err instanceof TransactionConditionError)) throw err;
      if (err.failed.has('community')) return 'community gone';
      if (err.failed.has('binding')) return 'rebound';
      // A refresh replaced the grant read above: read it again, so the grant ended is the one replaced.
      if (attempt >= GRANT_WRITE_ATTEMPTS) throw err;
    }
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The small page the browser shows after X sends the person back. */
export const callbackHtml = (p: CallbackPage): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(p.title)}</title></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem"><h1>${escapeHtml(p.title)}</h1><p>${escapeHtml(p.message)}</p></body></html>`;
