/**
 * X communities' own items: pending OAuth authorizations (by the hash of their state), the account
 * and its sealed tokens with the refresh lease, the polling cursor and the banned authors. Tokens are
 * stored only as the sealed string the caller hands in; this module never sees them in the clear.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table, updateIf, writeIfCondition } from '#shared/store/client';
import { defineEntity } from '#shared/store/entity';
import type { TransactItem } from '#shared/store/transactions';
import { xBannedAuthorsKey, xOAuthStateKey, xPollCursorKey, xRefreshLeaseKey, xTokensKey } from '#shared/store/keys';

// ---- OAuth authorizations ----------------------------------------------------------------------

export interface XOAuthState {
  communityId: string;
  userId: string;
  /** The PKCE code verifier sent with the code exchange. */
  verifier: string;
  /** Exactly the redirect_uri the authorization named (the exchange must repeat it). */
  redirectUri: string;
  expiresAt: string;
}

const oauthStates = defineEntity<XOAuthState & { usedAt?: string; ttl: number }>()({
  name: 'xOAuthState',
  key: (s: { stateHash: string }) => xOAuthStateKey(s.stateHash),
  keyOnly: ['stateHash'],
  keep: ['ttl'],
});

export async function putOAuthState(stateHash: string, state: XOAuthState): Promise<void> {
  // DynamoDB's TTL removes it some time after it expires; expiresAt is what is enforced.
  const ttl = Math.ceil(Date.parse(state.expiresAt) / 1000) + 24 * 60 * 60;
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: oauthStates.item({ stateHash, ...state, ttl }),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export type ConsumedState = { outcome: 'ok'; state: XOAuthState } | { outcome: 'unknown' | 'used' | 'expired' };

/** Marks the authorization used, once: a second callback with the same state finds it used. */
export async function consumeOAuthState(stateHash: string, atIso: string): Promise<ConsumedState> {
  const used = await updateIf({
    TableName: table(),
    Key: xOAuthStateKey(stateHash),
    ...oauthStates.update({
      set: { usedAt: atIso },
      condition: {
        expression: 'attribute_exists(pk) AND attribute_not_exists(usedAt) AND expiresAt > :at',
        values: { ':at': atIso },
      },
    }),
  });
  if (used) {
    const a = oauthStates.fromItem(used);
    return {
      outcome: 'ok',
      state: {
        communityId: a.communityId,
        userId: a.userId,
        verifier: a.verifier,
        redirectUri: a.redirectUri,
        expiresAt: a.expiresAt,
      },
    };
  }
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: xOAuthStateKey(stateHash), ConsistentRead: true }),
  );
  const state = oauthStates.maybe(Item);
  if (!state) return { outcome: 'unknown' };
  return { outcome: state.usedAt ? 'used' : 'expired' };
}

// ---- The account and its tokens ---------------------------------------------------------------

export interface XAccountRecord {
  /** The X user the tokens act as (from /2/users/me). */
  accountId: string;
  username: string;
  /** The access and refresh tokens, sealed together by the encryption port. */
  sealed: string;
  /** When the access token stops working. */
  expiresAt: string;
  /** Moves on every replacement: a refresh writes only over the version it read. */
  version: number;
  /** Set when X refused the refresh token: the account must authorize again. */
  refusedAt: string | null;
  refusedReason: string | null;
  /**
   * Set just before a refresh spends the refresh token at X, removed with the tokens it stores: still
   * set on a later read, that refresh stopped (a crash, a timeout) without storing X's answer.
   */
  refreshStartedAt: string | null;
  updatedAt: string;
}

/** X's rate-limit windows of the account, as attributes `rl:<endpoint>` (epoch ms the window ends) beside its tokens. */
const RATE_LIMIT_PREFIX = 'rl:';
export const rateLimitsOf = (record: XAccountRecord): Record<string, number> =>
  Object.fromEntries(
    Object.entries(record)
      .filter(([k, v]) => k.startsWith(RATE_LIMIT_PREFIX) && typeof v === 'number')
      .map(([k, v]) => [k.slice(RATE_LIMIT_PREFIX.length), v as number]),
  );

/** Written by updates (each sets the entity name), with `rl:<endpoint>` attributes beside the record. */
const accounts = defineEntity<XAccountRecord>()({
  name: 'xAccount',
  key: (a: { communityId: string }) => xTokensKey(a.communityId),
  nullable: ['refusedAt', 'refusedReason', 'refreshStartedAt'],
});
const refreshLeases = defineEntity<{ holder: string; until: number }>()({
  name: 'xRefreshLease',
  key: (l: { communityId: string }) => xRefreshLeaseKey(l.communityId),
  keyOnly: ['communityId'],
});
const pollCursors = defineEntity<XPollCursor>()({
  name: 'xPollCursor',
  key: (c: { communityId: string }) => xPollCursorKey(c.communityId),
  keyOnly: ['communityId'],
});
/**
 * Created by its first ADD, which sets the name too. An undo before this module conditioned its DELETE
 * wrote key-only items where no author was banned: reading accepts them (no authors) rather than
 * failing every poll of the community.
 */
const bannedAuthors = defineEntity<{ authors?: Set<string> }>()({
  name: 'xBannedAuthors',
  key: (b: { communityId: string }) => xBannedAuthorsKey(b.communityId),
  createdByUpdate: true,
});

export async function getXAccount(communityId: string): Promise<XAccountRecord | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: xTokensKey(communityId), ConsistentRead: true }),
  );
  return accounts.maybe(Item);
}

/**
 * A new grant (the callback), as a transaction item to write with what holds it to its community:
 * replaces the grant of version `seenVersion` (null: the community had none), on a version past it. A
 * refresh that wrote since fails the item's condition, so the caller knows which grant it replaced.
 */
export function xGrantItem(
  communityId: string,
  account: Omit<XAccountRecord, 'version' | 'refusedAt' | 'refusedReason' | 'refreshStartedAt'>,
  seenVersion: number | null,
): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: xTokensKey(communityId),
      ...accounts.update({
        set: { entity: accounts.name, ...account },
        add: { version: 1 },
        remove: ['refusedAt', 'refusedReason', 'refreshStartedAt'],
        condition:
          seenVersion === null
            ? { expression: 'attribute_not_exists(pk)' }
            : { expression: 'version = :seen', values: { ':seen': seenVersion } },
      }),
    },
  };
}

/**
 * The account's current user name (X lets an account rename itself; the reply search names it), read
 * with the tokens of version `seenVersion`: a newer grant (a new authorization) read its own name since.
 */
export async function renameXAccount(
  communityId: string,
  accountId: string,
  seenVersion: number,
  username: string,
): Promise<boolean> {
  return updateAccountIf(communityId, {
    set: { username },
    condition: {
      expression: 'accountId = :account AND version = :seen',
      values: { ':account': accountId, ':seen': seenVersion },
    },
  });
}

/** A conditional update of the account record: false when its condition failed. */
const updateAccountIf = (communityId: string, spec: Parameters<typeof accounts.update>[0]): Promise<boolean> =>
  writeIfCondition(() =>
    ddb().send(new UpdateCommand({ TableName: table(), Key: xTokensKey(communityId), ...accounts.update(spec) })),
  );

/**
 * Marks the refresh of version `seenVersion` as under way, before its refresh token is spent (false: a
 * newer grant was written since, whose tokens to use instead).
 */
export async function markXRefreshStarted(communityId: string, seenVersion: number, atIso: string): Promise<boolean> {
  return updateAccountIf(communityId, {
    set: { refreshStartedAt: atIso },
    condition: { expression: 'version = :seen', values: { ':seen': seenVersion } },
  });
}

/**
 * A refresh's new tokens, written only over the version the refresher read (false: someone else wrote
 * first). They are the account's live tokens whatever was concluded meanwhile: a refresh whose answer
 * came late, after another worker found the spent token refused, makes the account usable again.
 */
export async function replaceXTokens(
  communityId: string,
  seenVersion: number,
  tokens: { sealed: string; expiresAt: string; updatedAt: string },
): Promise<boolean> {
  return updateAccountIf(communityId, {
    set: tokens,
    add: { version: 1 },
    remove: ['refreshStartedAt', 'refusedAt', 'refusedReason'],
    condition: { expression: 'version = :seen', values: { ':seen': seenVersion } },
  });
}

/** X refused the refresh token: kept so polling stops asking until the account authorizes again. */
export async function markXTokensRefused(
  communityId: string,
  seenVersion: number,
  reason: string,
  atIso: string,
): Promise<void> {
  await updateAccountIf(communityId, {
    set: { refusedAt: atIso, refusedReason: reason.slice(0, 300) },
    remove: ['refreshStartedAt'],
    condition: { expression: 'version = :seen', values: { ':seen': seenVersion } },
  });
}

/** Remembers until when the account may not call `endpoint` again (a 429's x-rate-limit-reset). */
export async function rememberXRateLimit(communityId: string, endpoint: string, untilMs: number): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: xTokensKey(communityId),
        UpdateExpression: 'SET #rl = :until',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#rl': `${RATE_LIMIT_PREFIX}${endpoint}` },
        ExpressionAttributeValues: { ':until': untilMs },
      }),
    ),
  );
}

export async function deleteXAccount(communityId: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: table(), Key: xTokensKey(communityId) }));
}

// ---- The refresh lease --------------------------------------------------------------------------

/** True when `holder` now holds the lease: nobody held it, or the last holder's time ran out. */
export async function acquireRefreshLease(
  communityId: string,
  holder: string,
  nowMs: number,
  leaseMs: number,
): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new PutCommand({
        TableName: table(),
        Item: refreshLeases.item(
          { communityId, holder, until: nowMs + leaseMs },
          { ttl: Math.ceil((nowMs + leaseMs) / 1000) + 3600 },
        ),
        ConditionExpression: 'attribute_not_exists(pk) OR #until < :now',
        ExpressionAttributeNames: { '#until': 'until' },
        ExpressionAttributeValues: { ':now': nowMs },
      }),
    ),
  );
}

export async function releaseRefreshLease(communityId: string, holder: string): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new DeleteCommand({
        TableName: table(),
        Key: xRefreshLeaseKey(communityId),
        ConditionExpression: '#h = :h',
        ExpressionAttributeNames: { '#h': 'holder' },
        ExpressionAttributeValues: { ':h': holder },
      }),
    ),
  );
}

// ---- Polling ------------------------------------------------------------------------------------

export interface XPollCursor {
  /** The newest reply already read: the next search starts after it. */
  sinceId?: string;
  /** A search that had more pages than one poll reads: where to go on, and the newest id it started from. */
  paging?: { nextToken: string; newestId: string };
}

export async function getXCursor(communityId: string): Promise<XPollCursor> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: xPollCursorKey(communityId), ConsistentRead: true }),
  );
  const stored = pollCursors.maybe(Item);
  return {
    ...(stored?.sinceId ? { sinceId: stored.sinceId } : {}),
    ...(stored?.paging ? { paging: stored.paging } : {}),
  };
}

export async function putXCursor(communityId: string, cursor: XPollCursor): Promise<void> {
  await ddb().send(new PutCommand({ TableName: table(), Item: pollCursors.item({ communityId, ...cursor }) }));
}

// ---- Banned authors -----------------------------------------------------------------------------

export async function bannedXAuthors(communityId: string): Promise<Set<string>> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: xBannedAuthorsKey(communityId), ConsistentRead: true }),
  );
  return new Set(bannedAuthors.maybe(Item)?.authors ?? []);
}

export async function addBannedXAuthor(communityId: string, authorId: string): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: xBannedAuthorsKey(communityId),
      UpdateExpression: 'SET #e = :e ADD #a :a',
      ExpressionAttributeNames: { '#e': 'entity', '#a': 'authors' },
      ExpressionAttributeValues: { ':e': 'xBannedAuthors', ':a': new Set([authorId]) },
    }),
  );
}

/** Only where the community keeps banned authors: an update on a missing item would create a key-only one. */
export async function removeBannedXAuthor(communityId: string, authorId: string): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: xBannedAuthorsKey(communityId),
        UpdateExpression: 'DELETE #a :a',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#a': 'authors' },
        ExpressionAttributeValues: { ':a': new Set([authorId]) },
      }),
    ),
  );
}
