/**
 * A working access token for an X community. X rotates the refresh token on every use and refuses
 * the old one, so two workers refreshing with the same token would lose the account: a refresh runs
 * only under the community's lease (a conditional write in the table), and its new tokens are written
 * only over the version it read. A worker that loses the lease waits for the holder's write and reads
 * the new tokens. Tokens are sealed by the encryption port, bound to the community's id.
 */
import { readOwnCredentials } from '#shared/platforms/ownCredentials';
import { X_CREDENTIALS } from './credentials';
import type { PreparedSeal } from '#shared/adapters/encryption';
import { now, ports } from '#shared/adapters/ports';
import { XApi, type XAnswer, type XTokenAnswer, type XUser } from './api';
import type { CallOutcome } from '#shared/platforms/result';
import { uuidv7 } from '#shared/ids';
import { getCommunity } from '#shared/store/communitiesRepo';
import {
  acquireRefreshLease,
  deleteXAccount,
  getXAccount,
  markXRefreshStarted,
  markXTokensRefused,
  rateLimitsOf,
  releaseRefreshLease,
  renameXAccount,
  replaceXTokens,
  type XAccountRecord,
} from './xRepo';

export interface XConfigured {
  configured: true;
  clientId: string;
  clientSecret: string;
  apiBase: string;
  authorizeUrl: string;
}
export type XClient = XConfigured | { configured: false; apiBase: string; authorizeUrl: string };

/** The operator's X app, as the platform module reads it from the platform credentials. */
export async function xCredentials(): Promise<XClient> {
  const { clientId, clientSecret, apiBase, authorizeUrl } = await readOwnCredentials(X_CREDENTIALS);
  return clientId && clientSecret
    ? { configured: true, clientId, clientSecret, apiBase, authorizeUrl }
    : { configured: false, apiBase, authorizeUrl };
}

export interface TokenPair {
  access_token: string;
  refresh_token: string | null;
}

/** The tokens X's token endpoint issued (no refresh token when offline.access was not granted). */
export const issuedPair = (answer: XTokenAnswer): TokenPair => ({
  access_token: answer.access_token,
  refresh_token: answer.refresh_token ?? null,
});

const sealContext = (communityId: string) => `x-tokens:${communityId}`;

export const sealXTokens = (communityId: string, pair: TokenPair): Promise<string> =>
  ports().encryption.seal(JSON.stringify(pair), sealContext(communityId));
const openXTokens = async (communityId: string, sealed: string): Promise<TokenPair> =>
  JSON.parse(await ports().encryption.open(sealed, sealContext(communityId))) as TokenPair;

/** The account a community acts as, with a token that works now. */
export interface XSession {
  accessToken: string;
  accountId: string;
  username: string;
  /** X's rate-limit windows still known for the account, by endpoint: epoch ms each ends. */
  rateLimits: Record<string, number>;
}

/**
 * Why no session: `not_configured` (no X app), `not_authorized` (nobody authorized the community yet),
 * `refused` (X refused the refresh token: authorize again), `unreachable` (X or the network failed:
 * try again later).
 */
export class XSessionUnavailable extends Error {
  constructor(
    readonly reason: 'not_configured' | 'not_authorized' | 'refused' | 'unreachable',
    message: string,
    readonly outcome?: CallOutcome,
  ) {
    super(message);
    this.name = 'XSessionUnavailable';
  }
}

/** Refreshed this long before it expires, so a token never dies mid-call. */
const EXPIRY_MARGIN_MS = 60_000;
/** Longer than one token call (10 s timeout) with room to write the result. */
export const REFRESH_LEASE_MS = 30_000;
const WAIT_STEP_MS = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A session for the community. `stale`: the token was refused by X (a 401) although it had not
 * expired; it is refreshed unless someone already replaced that version.
 */
export async function xSession(
  communityId: string,
  stale?: { version: number },
): Promise<XSession & { version: number }> {
  const client = await xCredentials();
  if (!client.configured)
    throw new XSessionUnavailable('not_configured', 'X_CLIENT_ID and X_CLIENT_SECRET are not set');
  for (let round = 0; round < 3; round++) {
    const account = await usableAccount(communityId);
    const expired =
      Date.parse(account.expiresAt) - now().getTime() <= EXPIRY_MARGIN_MS || stale?.version === account.version;
    if (!expired) return sessionOf(communityId, account);
    const holder = uuidv7();
    if (await acquireRefreshLease(communityId, holder, now().getTime(), REFRESH_LEASE_MS)) {
      try {
        // Read again under the lease: the last holder may have written between our read and our lease.
        const current = await usableAccount(communityId);
        if (current.version !== account.version) return sessionOf(communityId, current);
        return await refresh(client, communityId, current);
      } finally {
        await releaseRefreshLease(communityId, holder);
      }
    }
    // Another worker is refreshing: its new tokens are written under a new version (or it gives up).
    const deadline = Date.now() + REFRESH_LEASE_MS;
    while (Date.now() < deadline) {
      await sleep(WAIT_STEP_MS);
      const seen = await getXAccount(communityId);
      if (!seen || seen.refusedAt || seen.version !== account.version) break;
    }
    stale = undefined;
  }
  throw new XSessionUnavailable('unreachable', 'The X tokens could not be refreshed (another worker held the lease)');
}

async function usableAccount(communityId: string): Promise<XAccountRecord> {
  const account = await getXAccount(communityId);
  if (!account) throw new XSessionUnavailable('not_authorized', 'No X account has authorized this community yet');
  if (account.refusedAt)
    throw new XSessionUnavailable(
      'refused',
      `X refused the stored refresh token (${account.refusedReason ?? 'no reason given'}): the account must authorize again`,
    );
  return account;
}

async function sessionOf(communityId: string, account: XAccountRecord) {
  const { access_token } = await openXTokens(communityId, account.sealed);
  return {
    accessToken: access_token,
    accountId: account.accountId,
    username: account.username,
    version: account.version,
    rateLimits: rateLimitsOf(account),
  };
}

async function refresh(client: XConfigured, communityId: string, account: XAccountRecord) {
  const { refresh_token } = await openXTokens(communityId, account.sealed);
  if (!refresh_token) {
    await markXTokensRefused(
      communityId,
      account.version,
      'no refresh token (offline.access was not granted)',
      now().toISOString(),
    );
    throw new XSessionUnavailable('refused', 'The X grant has no refresh token: the account must authorize again');
  }
  // Everything that can fail is done before X spends the refresh token: once X has answered, its new
  // tokens are sealed with a data key made now (no KMS call left) and stored in one write.
  const seal = await ports().encryption.prepareSeal(sealContext(communityId));
  try {
    return await spendRefreshToken(client, communityId, account, refresh_token, seal);
  } finally {
    seal.discard();
  }
}

/** A refresh marked in the account record that never stored X's answer (its worker stopped): its token may be spent. */
const INTERRUPTED =
  'a refresh of the tokens stopped before storing what X answered, and X has rotated the refresh token since';

async function spendRefreshToken(
  client: XConfigured,
  communityId: string,
  account: XAccountRecord,
  refresh_token: string,
  seal: PreparedSeal,
) {
  // Read under the lease: a refresh marked before ours never finished.
  const interrupted = account.refreshStartedAt !== null;
  if (!(await markXRefreshStarted(communityId, account.version, now().toISOString())))
    return sessionOf(communityId, await usableAccount(communityId));
  const answer = await new XApi(client.apiBase).token(client.clientId, client.clientSecret, {
    grant_type: 'refresh_token',
    refresh_token,
  });
  if (!answer.ok) {
    // A refusal (invalid_request / invalid_grant) means the token is spent or revoked; anything else may pass
    // (the mark stays: whether X spent the token is unknown until the next refresh tries it).
    if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
      const why = interrupted ? `${INTERRUPTED} (${answer.error})` : answer.error;
      await markXTokensRefused(communityId, account.version, why, now().toISOString());
      throw new XSessionUnavailable(
        'refused',
        `X refused the refresh token: ${why}; the account must authorize again`,
        answer,
      );
    }
    throw new XSessionUnavailable('unreachable', `Refreshing the X tokens failed: ${answer.error}`, answer);
  }
  const tokens = answer.result as XTokenAnswer;
  const pair: TokenPair = { access_token: tokens.access_token, refresh_token: tokens.refresh_token ?? refresh_token };
  const sealed = seal.seal(JSON.stringify(pair));
  const expiresAt = new Date(now().getTime() + tokens.expires_in * 1000).toISOString();
  if (!(await replaceXTokens(communityId, account.version, { sealed, expiresAt, updatedAt: now().toISOString() }))) {
    // A new authorization landed meanwhile: it is the newer grant. The tokens X just gave this refresh are
    // kept nowhere, so they are ended at X rather than left live (they belong to the grant this one replaced).
    await revokeXGrant(client, issuedPair(tokens));
    return sessionOf(communityId, await usableAccount(communityId));
  }
  return {
    accessToken: tokens.access_token,
    accountId: account.accountId,
    username: await currentUsername(client, communityId, account, tokens.access_token),
    version: account.version + 1,
    rateLimits: rateLimitsOf(account),
  };
}

/**
 * X lets an account rename itself, and the reply search names the account (`to:<username>`), so each
 * refresh (at least every two hours while the community is polled) reads the name again. A failed read
 * keeps the stored name: the new tokens are stored already.
 */
async function currentUsername(
  client: XConfigured,
  communityId: string,
  account: XAccountRecord,
  accessToken: string,
): Promise<string> {
  const me = await new XApi(client.apiBase).request(accessToken, { method: 'GET', route: '/2/users/me' });
  const user = me.ok ? (me.result as XAnswer<XUser>).data : undefined;
  if (user?.id !== account.accountId || !user.username || user.username === account.username) return account.username;
  // Over the version this refresh wrote only: a grant written since read the name after this read.
  if (await renameXAccount(communityId, account.accountId, account.version + 1, user.username)) return user.username;
  return (await getXAccount(communityId))?.username ?? account.username;
}

/**
 * Runs one call as the community's account; a 401 (the token was revoked or expired early) refreshes
 * once and tries again. A missing session becomes the outcome the delivery runner understands.
 */
export async function asXAccount(
  communityId: string,
  call: (session: XSession) => Promise<CallOutcome>,
): Promise<CallOutcome> {
  try {
    const session = await xSession(communityId);
    const outcome = await call(session);
    if (outcome.ok || outcome.status !== 401) return outcome;
    return await call(await xSession(communityId, { version: session.version }));
  } catch (err) {
    if (!(err instanceof XSessionUnavailable)) throw err;
    if (err.outcome)
      return err.outcome.ok ? { ok: false, status: 0, error: err.message } : { ...err.outcome, error: err.message };
    return { ok: false, status: err.reason === 'unreachable' ? 0 : 401, error: err.message };
  }
}

/** X unreachable, limiting or failing: whether the token still works is unknown, so the revocation may be tried again. */
const undecided = (outcome: CallOutcome) =>
  !outcome.ok && (outcome.status === 0 || outcome.status === 429 || outcome.status >= 500);

/**
 * Ends a grant at X: the refresh token first (it would mint new access tokens), then the access token.
 * Best effort: X may be unreachable, and a grant whose tokens we no longer keep is unusable to us anyway.
 * False when X did not answer both (a caller that can try again keeps the tokens for it).
 */
export async function revokeXGrant(client: XConfigured, pair: TokenPair): Promise<boolean> {
  const api = new XApi(client.apiBase);
  const outcomes: CallOutcome[] = [];
  if (pair.refresh_token)
    outcomes.push(await api.revoke(client.clientId, client.clientSecret, pair.refresh_token, 'refresh_token'));
  outcomes.push(await api.revoke(client.clientId, client.clientSecret, pair.access_token, 'access_token'));
  return !outcomes.some(undecided);
}

/** Ends at X the grant a community's record holds (one X already refused has nothing left to end). */
export async function revokeStoredXGrant(
  client: XConfigured,
  communityId: string,
  account: Pick<XAccountRecord, 'sealed' | 'refusedAt'>,
): Promise<boolean> {
  return account.refusedAt ? true : revokeXGrant(client, await openXTokens(communityId, account.sealed));
}

/**
 * A community that will never be monitored again (deleted, retyped, expired) lets go of its account: the
 * grant is revoked at X and the sealed tokens are deleted, so nothing of the account is kept. Under the
 * refresh lease: a refresh in flight has spent the refresh token read here and is being handed new ones,
 * which no one would revoke (they would be written after this read, or dropped as the record is gone).
 * `stillGone`, asked under the lease, says the community still needs no grant: one changed back to X and
 * connected again while this waited holds a grant it uses.
 */
export async function forgetXAccount(
  communityId: string,
  stillGone?: () => Promise<boolean>,
  untilRevoked = false,
): Promise<void> {
  const holder = uuidv7();
  await awaitRefreshLease(communityId, holder);
  try {
    if (stillGone && !(await stillGone())) return;
    const account = await getXAccount(communityId);
    if (!account) return;
    const client = await xCredentials();
    const ended = !client.configured || (await revokeStoredXGrant(client, communityId, account));
    if (!ended && untilRevoked)
      throw new Error('X did not confirm the grant revoked: its tokens are kept to try again');
    await deleteXAccount(communityId);
  } finally {
    await releaseRefreshLease(communityId, holder);
  }
}

/**
 * Takes the refresh lease, waiting out a refresh that holds it. A holder that has not let go after a whole
 * lease (a worker that died, a clock that does not move) is not waited for longer: the clean-up goes on.
 */
async function awaitRefreshLease(communityId: string, holder: string): Promise<void> {
  const deadline = Date.now() + REFRESH_LEASE_MS;
  while (!(await acquireRefreshLease(communityId, holder, now().getTime(), REFRESH_LEASE_MS))) {
    if (Date.now() >= deadline) return;
    await sleep(WAIT_STEP_MS);
  }
}

/**
 * Called when the community's monitoring stops or starts: only an expiry is for good. An expired community
 * stays in the poll list until this succeeds (polling.ts), so a revocation X did not answer keeps the
 * tokens and throws, and the next minute's poll tries again.
 */
export async function forgetXAccountOfExpired(community: { userId: string; id: string }): Promise<void> {
  const expired = async () => (await getCommunity(community.userId, community.id, true))?.billingState === 'expired';
  if (await expired()) await forgetXAccount(community.id, expired, true);
}
