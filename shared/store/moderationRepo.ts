/**
 * The moderation engine's state of one community: events already seen (with the decision taken, so
 * a re-delivery gets the same answer), what it remembers of each member, counters and the audit log.
 */
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditDraft, Decision, MemberState, MetricDelta } from '#shared/domain/moderation/engine';
import { ddb, table, writeIfCondition } from './client';
import {
  MODERATION_METRIC_SHARDS,
  moderationAuditKey,
  moderationAuditLookup,
  moderationAuditPartition,
  moderationEventKey,
  moderationMemberKey,
  moderationMetricsKey,
  moderationMetricsPartition,
} from './keys';
import type { TransactItem } from './transactions';
import { getMany } from './batch';
import { defineEntity } from './entity';

/** Re-deliveries come within minutes or hours; a week of memory is plenty and keeps the table small. */
const SEEN_EVENT_TTL_SECONDS = 7 * 24 * 60 * 60;
/**
 * A member silent for a year starts afresh. Shorter would be wrong: Telegram sends no join time with
 * messages, so a forgotten veteran would be held to the new-member rules again.
 */
const MEMBER_TTL_SECONDS = 365 * 24 * 60 * 60;

const epochSeconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

export interface StoredMember {
  state: MemberState;
  /** 0 when the member has no item yet. */
  version: number;
}

export interface AuditEntry extends AuditDraft {
  id: string;
  at: string;
}

const auditEntries = defineEntity<AuditEntry>()({
  name: 'moderationAudit',
  key: (e: AuditEntry & { communityId: string; position: number }) =>
    moderationAuditKey(e.communityId, e.at, e.position, e.id),
  keyOnly: ['communityId', 'position'],
});
const seenEventItems = defineEntity<{ eventId: string; decision: Decision; at: string }>()({
  name: 'moderationEvent',
  key: (e: { communityId: string; eventId: string }) => moderationEventKey(e.communityId, e.eventId),
  keyOnly: ['communityId'],
});
const members = defineEntity<StoredMember & { userId: string }>()({
  name: 'moderationMember',
  key: (m: { communityId: string; userId: string }) => moderationMemberKey(m.communityId, m.userId),
  keyOnly: ['communityId'],
});
/** A counter shard: created by its first ADD, so its items carry no entity name. `undone` counts undos, not events. */
const metricShards = defineEntity<MetricDelta & { undone?: number; lastEventAt: string }>()({
  name: 'moderationMetrics',
  key: (m: { communityId: string; shard: number }) => moderationMetricsKey(m.communityId, m.shard),
  createdByUpdate: true,
});

export interface MetricTotals {
  counts: Record<string, number>;
  lastEventAt: string | null;
}

/** Decisions already taken for these event ids, by id. */
export async function seenEvents(communityId: string, eventIds: string[]): Promise<Map<string, Decision>> {
  const items = await getMany(
    [...new Set(eventIds)].map((id) => moderationEventKey(communityId, id)),
    { consistent: true },
  );
  return new Map(items.map(seenEventItems.fromItem).map((seen) => [seen.eventId, seen.decision]));
}

export async function loadMembers(communityId: string, userIds: string[]): Promise<Map<string, StoredMember>> {
  const items = await getMany(
    [...new Set(userIds)].map((id) => moderationMemberKey(communityId, id)),
    { consistent: true },
  );
  return new Map(items.map(members.fromItem).map((m) => [m.userId, { state: m.state, version: m.version }]));
}

/** Fails the transaction when the event was taken by another delivery meanwhile. */
export function putSeenEvent(communityId: string, decision: Decision, at: string): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: seenEventItems.item(
        { communityId, eventId: decision.event_id, decision, at },
        { ttl: epochSeconds(at) + SEEN_EVENT_TTL_SECONDS },
      ),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Records an event handled outside a member transaction (activation); a concurrent copy may have won, which is fine. */
export async function rememberEvent(communityId: string, decision: Decision, at: string): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new PutCommand({
        TableName: table(),
        Item: seenEventItems.item(
          { communityId, eventId: decision.event_id, decision, at },
          { ttl: epochSeconds(at) + SEEN_EVENT_TTL_SECONDS },
        ),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** Optimistic: fails when another delivery changed this member since it was read. */
export function putMemberState(communityId: string, userId: string, member: StoredMember, at: string): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: members.item(
        { communityId, userId, state: member.state, version: member.version + 1 },
        { ttl: epochSeconds(at) + MEMBER_TTL_SECONDS },
      ),
      ConditionExpression: member.version === 0 ? 'attribute_not_exists(pk)' : 'version = :v',
      ExpressionAttributeValues: member.version === 0 ? undefined : { ':v': member.version },
    },
  };
}

/** `position`: the event's place in its batch, so entries written in the same millisecond keep their order. */
export function putAuditEntry(communityId: string, entry: AuditEntry, position: number): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: auditEntries.item({ communityId, position, ...entry }),
    },
  };
}

/** Adds to one counter shard; `lastEventAt` is kept per shard and the newest wins on read. */
export function addToMetrics(
  communityId: string,
  shard: number,
  delta: MetricDelta,
  lastEventAt: string,
): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: moderationMetricsKey(communityId, shard),
      ...metricShards.update({
        set: { lastEventAt },
        add: Object.fromEntries(Object.entries(delta).filter(([, v]) => v)),
      }),
    },
  };
}

/** One more undone action, in the shard of the member it was taken against (not an event: lastEventAt stays). */
export async function countUndone(communityId: string, memberId: string): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: moderationMetricsKey(communityId, metricShardOf(memberId)),
      ...metricShards.update({ add: { undone: 1 } }),
    }),
  );
}

export async function readMetrics(communityId: string, consistent: boolean): Promise<MetricTotals> {
  const { pk, prefix } = moderationMetricsPartition(communityId);
  const { Items = [] } = await ddb().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      ConsistentRead: consistent,
    }),
  );
  const counts: Record<string, number> = {};
  let lastEventAt: string | null = null;
  for (const { lastEventAt: last, ...values } of Items.map(metricShards.fromItem)) {
    for (const [name, value] of Object.entries(values))
      if (typeof value === 'number') counts[name] = (counts[name] ?? 0) + value;
    if (typeof last === 'string' && (!lastEventAt || last > lastEventAt)) lastEventAt = last;
  }
  return { counts, lastEventAt };
}

/** The newest `limit` audit entries, newest first. */
export async function newestAuditEntries(
  communityId: string,
  limit: number,
  consistent: boolean,
): Promise<AuditEntry[]> {
  if (limit === 0) return [];
  const { pk, prefix } = moderationAuditPartition(communityId);
  const { Items = [] } = await ddb().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      ScanIndexForward: false,
      Limit: limit,
      ConsistentRead: consistent,
    }),
  );
  return Items.map(auditEntries.fromItem);
}

/** Which counter shard a member's events add to: one member's events always land on the same one. */
export const metricShardOf = (userId: string): number => {
  let hash = 0;
  for (const ch of userId) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return hash % MODERATION_METRIC_SHARDS;
};

/** One audit entry by id (see moderationAuditLookup): a Query on its millisecond's prefix. */
export async function findAuditEntry(communityId: string, auditId: string): Promise<AuditEntry | undefined> {
  const { pk, prefix } = moderationAuditLookup(communityId, auditId);
  const { Items = [] } = await ddb().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      ConsistentRead: true,
    }),
  );
  const item = Items.find((i) => i.id === auditId);
  if (!item) return undefined;
  return auditEntries.fromItem(item);
}
