/**
 * Platform deliveries: one item per decision (or captcha, or undo) with the platform calls planned for
 * it and what each call came to. Planning is a conditional put, so a re-delivered update plans nothing
 * new; each call's outcome is written as soon as it is known, so a retried worker skips what was done.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table, writeIfCondition } from './client';
import {
  MODERATION_DELIVERY_DUE_SHARDS,
  moderationDeliveryDueIndexKey,
  moderationDeliveryDuePartition,
  moderationDeliveryDueUpTo,
  moderationDeliveryKey,
} from './keys';
import { getMany } from './batch';
import { queryDueShards } from './query';
import { defineEntity } from './entity';
import type { CommunityType } from '#shared/domain/moderation/communityTypes';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'not_configured' | 'observe';

export interface PlannedCall {
  /** The community type whose platform module sends it (registry.ts). */
  platform: CommunityType;
  /** Telegram: the Bot API method. Others: the HTTP method. */
  method: string;
  /** The route under the API base, on platforms with routes. */
  route?: string;
  body?: Record<string, unknown>;
  /**
   * A timed action (a mute): it lasts `seconds` from when it is applied, not from when the message
   * was written; `from` is when the offence happened. The runner resolves the end at send time
   * (SendContext.endsAt) and does not send it at all once `from + seconds` has passed.
   */
  timed?: { seconds: number; from: string };
  /**
   * What a call takes back, on a platform whose block has no kind of its own (Crisp's): a mute's lift
   * (its end, its undo) must leave a ban applied since in place, a ban's undo lifts it.
   */
  lifts?: 'mute' | 'ban';
  /**
   * A side effect that a second send would repeat (a reply, a modmail): claimed in the delivery before it
   * is sent, so a worker that dies before recording the answer leaves a claim, and the delivery run again
   * does not send it a second time.
   */
  once?: boolean;
}

export interface CallRecord {
  ok: boolean;
  at: string;
  error?: string;
  /** Telegram's message_id of a message we sent (a captcha prompt is deleted by it later). */
  message_id?: number;
  /** Not sent, and why (a timed action whose time was over before it could be applied). */
  skipped?: string;
  /** A `once` call claimed and being sent: no answer is recorded yet. */
  sending?: boolean;
}

export interface Delivery {
  deliveryId: string;
  communityId: string;
  /**
   * The community's owner, where the planner names it (a decision's calls, alerts, welcomes, captcha
   * prompts): the runner then sends nothing once the community is deleted, suspended, expired, moved to
   * another platform or switched to observe. Without it (an unblock, an undo, a captcha lifted) the
   * calls go out regardless: they take back what the service did.
   */
  userId?: string;
  /** What the calls carry out: a decision's action, `welcome`, `captcha`, `captcha_pass`, `captcha_timeout`, `undo`. */
  purpose: string;
  /** The audit entry the delivery belongs to, when there is one. */
  auditId?: string;
  eventId?: string;
  /**
   * The place on the platform the calls act in, where they do not name it themselves: a Reddit
   * item's subreddit (its removal names only the item).
   */
  place?: string;
  calls: PlannedCall[];
  outcomes: (CallRecord | null)[];
  status: DeliveryStatus;
  error: string | null;
  attempts: number;
  /**
   * Not before this: the wait a platform asked for (a 429's Retry-After). A queue's delay stops at 15
   * minutes, so a longer wait (Crisp's daily quota) brings the delivery back early, to wait again.
   */
  waitUntil?: string;
  createdAt: string;
  updatedAt: string;
}

const DELIVERY_TTL_SECONDS = 400 * 24 * 60 * 60;

const deliveries = defineEntity<Delivery>()({
  name: 'moderationDelivery',
  key: (d: Pick<Delivery, 'communityId' | 'deliveryId'>) => moderationDeliveryKey(d.communityId, d.deliveryId),
});

/**
 * True when this call planned it; false when an earlier delivery of the same update already did.
 * A pending delivery enters the stalled-delivery index at `stalledAt` (see listStalledDeliveries).
 */
export async function planDelivery(d: Delivery, stalledAt?: string): Promise<boolean> {
  const due =
    d.status === 'pending' && stalledAt ? moderationDeliveryDueIndexKey(d.communityId, d.deliveryId, stalledAt) : {};
  return writeIfCondition(() =>
    ddb().send(
      new PutCommand({
        TableName: table(),
        Item: deliveries.item(d, { ...due, ttl: Math.floor(Date.parse(d.createdAt) / 1000) + DELIVERY_TTL_SECONDS }),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

export async function getDelivery(communityId: string, deliveryId: string): Promise<Delivery | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: moderationDeliveryKey(communityId, deliveryId), ConsistentRead: true }),
  );
  return deliveries.maybe(Item);
}

export async function deliveriesByIds(communityId: string, ids: string[]): Promise<Map<string, Delivery>> {
  const keys = [...new Set(ids)].map((deliveryId) => deliveries.key({ communityId, deliveryId }));
  const items = await getMany(keys, { consistent: false });
  return new Map(items.map(deliveries.fromItem).map((d) => [d.deliveryId, d]));
}

export async function recordCallOutcome(
  communityId: string,
  deliveryId: string,
  index: number,
  outcome: CallRecord,
): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: moderationDeliveryKey(communityId, deliveryId),
      ...deliveries.update({ set: { [`outcomes[${index}]`]: outcome, updatedAt: outcome.at } }),
    }),
  );
}

/** A `once` call's claim given back (the platform answered that it did not do it): a later try sends it. */
export async function releaseCallClaim(communityId: string, deliveryId: string, index: number, at: string) {
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: moderationDeliveryKey(communityId, deliveryId),
      ...deliveries.update({ set: { [`outcomes[${index}]`]: null, updatedAt: at } }),
    }),
  );
}

export async function countAttempt(communityId: string, deliveryId: string, at: string): Promise<number> {
  const { Attributes } = await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: moderationDeliveryKey(communityId, deliveryId),
      ...deliveries.update({ add: { attempts: 1 }, set: { updatedAt: at } }),
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const attempts = Attributes?.attempts;
  if (typeof attempts !== 'number') throw new Error(`Delivery ${deliveryId} has no attempt count`);
  return attempts;
}

/** Settles a pending delivery; a settled one stays as it is (a late duplicate worker changes nothing). */
export async function settleDelivery(
  communityId: string,
  deliveryId: string,
  status: Exclude<DeliveryStatus, 'pending'>,
  error: string | null,
  at: string,
): Promise<void> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: moderationDeliveryKey(communityId, deliveryId),
        // A settled delivery leaves the stalled-delivery index.
        ...deliveries.update({
          set: { status, error, updatedAt: at },
          remove: ['gsi3pk', 'gsi3sk'],
          condition: { expression: '#s = :pending', names: { '#s': 'status' }, values: { ':pending': 'pending' } },
        }),
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

// ---- The stalled-delivery index: pending deliveries whose queue message may have been lost ----------

export interface StalledDelivery {
  communityId: string;
  deliveryId: string;
  /** The index position it was seen at (claims are conditioned on it). */
  dueKey: string;
}

/** Pending deliveries whose stall time is at or before `atIso`: a Query per shard of gsi3. */
export async function listStalledDeliveries(atIso: string): Promise<StalledDelivery[]> {
  const items = await queryDueShards(
    MODERATION_DELIVERY_DUE_SHARDS,
    moderationDeliveryDuePartition,
    moderationDeliveryDueUpTo(atIso),
  );
  return items.map((item) => {
    const d = deliveries.fromItem(item);
    return { communityId: d.communityId, deliveryId: d.deliveryId, dueKey: String(item.gsi3sk) };
  });
}

/**
 * Moves a pending delivery's stall time to `stalledAt` (with `set`, more fields): only while it is pending
 * and, with `seenKey`, only if it has not moved since it was seen. False otherwise.
 */
function movePending(
  communityId: string,
  deliveryId: string,
  stalledAt: string,
  set: { waitUntil?: string },
  seenKey?: string,
): Promise<boolean> {
  const key = moderationDeliveryDueIndexKey(communityId, deliveryId, stalledAt);
  return writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: moderationDeliveryKey(communityId, deliveryId),
        ...deliveries.update({
          set: { gsi3pk: key.gsi3pk, gsi3sk: key.gsi3sk, ...set },
          condition: {
            expression: seenKey === undefined ? '#s = :pending' : '#s = :pending AND gsi3sk = :seen',
            names: { '#s': 'status' },
            values: { ':pending': 'pending', ...(seenKey === undefined ? {} : { ':seen': seenKey }) },
          },
        }),
      }),
    ),
  );
}

/**
 * Moves a pending delivery's stall time to `stalledAt`: only while it is pending and, with `seenKey`,
 * only if it has not moved since it was seen (so overlapping sweeps queue it once). False otherwise.
 */
export const moveStallTime = (communityId: string, deliveryId: string, stalledAt: string, seenKey?: string) =>
  movePending(communityId, deliveryId, stalledAt, {}, seenKey);

/** A pending delivery waits out a platform's limit until `waitUntil`; it counts as stalled only from `stalledAt`. */
export const postponeDelivery = (communityId: string, deliveryId: string, waitUntil: string, stalledAt: string) =>
  movePending(communityId, deliveryId, stalledAt, { waitUntil });

/** Takes a delivery that is no longer pending out of the index (settled by a writer that raced its entry). */
export async function leaveStallIndex(communityId: string, deliveryId: string): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: moderationDeliveryKey(communityId, deliveryId),
        ...deliveries.update({
          remove: ['gsi3pk', 'gsi3sk'],
          condition: {
            expression: 'attribute_exists(pk) AND #s <> :pending',
            names: { '#s': 'status' },
            values: { ':pending': 'pending' },
          },
        }),
      }),
    ),
  );
}
