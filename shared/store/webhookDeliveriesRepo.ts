/**
 * The delivery log: one item per (event, endpoint). A pending delivery carries the sparse due-index
 * attributes (next attempt time), so a lost queue message is found by the sweep; a finished one drops them.
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table, updateIf, writeIfCondition } from './client';
import {
  WEBHOOK_DUE_SHARDS,
  webhookDeliveriesByEndpointPartition,
  webhookDeliveriesByStatusPartition,
  webhookDeliveriesPartition,
  webhookDeliveryKey,
  webhookDeliveryListIndexKey,
  webhookDueIndexKey,
  webhookDuePartition,
  webhookIndexUpTo,
} from './keys';
import { queryDueShards } from './query';
import { WEBHOOK_RETENTION_SECONDS } from './webhookEventsRepo';
import { defineEntity } from './entity';
import { setOrRemove } from './update';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveryRecord {
  id: string;
  userId: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  status: DeliveryStatus;
  /** Requests sent, scheduled and manual alike. */
  attempts: number;
  /** Scheduled attempts made: what the retry schedule counts (absent on older items: `attempts`). */
  autoAttempts: number;
  /** The schedule ends at this many scheduled attempts. */
  maxAttempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  /** The next scheduled attempt; null once the schedule is over. */
  nextAttemptAt: string | null;
  /** When a manual retry not yet made was asked for; at most one is outstanding. */
  manualRetryAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** As stored: older items have no autoAttempts. */
type StoredDelivery = Omit<WebhookDeliveryRecord, 'autoAttempts'> & { autoAttempts?: number };
const deliveries = defineEntity<StoredDelivery>()({
  name: 'webhookDelivery',
  key: (d: Pick<WebhookDeliveryRecord, 'userId' | 'id'>) => webhookDeliveryKey(d.userId, d.id),
  nullable: ['lastStatusCode', 'lastError', 'nextAttemptAt', 'manualRetryAt'],
});
const fromItem = (item: Record<string, unknown>): WebhookDeliveryRecord => {
  const d = deliveries.fromItem(item);
  return { ...d, autoAttempts: d.autoAttempts ?? d.attempts };
};

/** The due index follows the earliest attempt owed: a manual retry asked for, else the next scheduled one. */
const dueAt = (d: Pick<WebhookDeliveryRecord, 'status' | 'nextAttemptAt' | 'manualRetryAt'>) =>
  d.manualRetryAt ?? (d.status === 'pending' ? d.nextAttemptAt : null);
const dueIndex = (deliveryId: string, due: string | null) => (due ? webhookDueIndexKey(deliveryId, due) : {});

/** False when the delivery exists already (a repeated fan-out). */
export const putDelivery = (d: WebhookDeliveryRecord): Promise<boolean> =>
  writeIfCondition(() =>
    ddb().send(
      new PutCommand({
        TableName: table(),
        Item: deliveries.item(d, {
          ...webhookDeliveryListIndexKey(d.userId, d.endpointId, d.status, d.id),
          ...dueIndex(d.id, dueAt(d)),
          ttl: Math.floor(Date.parse(d.createdAt) / 1000) + WEBHOOK_RETENTION_SECONDS,
        }),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );

export async function getDelivery(userId: string, deliveryId: string): Promise<WebhookDeliveryRecord | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: webhookDeliveryKey(userId, deliveryId), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
}

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed'];

export interface DeliveryPageQuery {
  endpointId?: string;
  status?: DeliveryStatus;
  limit: number;
  order: 'asc' | 'desc';
  /** The id of the last delivery of the previous page: this page starts after it. */
  after?: string;
}

/**
 * One page of the delivery log, read by index for every filter: the user's partition (no filter),
 * gsi1 (a status), gsi2 (an endpoint and a status; an endpoint alone reads its three status partitions
 * and merges them). Each source is read for at most `limit + 1` items after the cursor, so a page
 * costs the same however long the log is; `more` says whether anything follows it.
 */
export async function pageDeliveries(
  userId: string,
  q: DeliveryPageQuery,
): Promise<{ items: WebhookDeliveryRecord[]; more: boolean }> {
  const statuses = q.status ? [q.status] : DELIVERY_STATUSES;
  const endpointId = q.endpointId;
  const sources: { index?: 'gsi1' | 'gsi2'; pk: string; prefix: string }[] = endpointId
    ? statuses.map((status) => ({
        index: 'gsi2' as const,
        pk: webhookDeliveriesByEndpointPartition(userId, endpointId, status),
        prefix: '',
      }))
    : q.status
      ? [{ index: 'gsi1', pk: webhookDeliveriesByStatusPartition(userId, q.status), prefix: '' }]
      : [{ pk: webhookDeliveriesPartition(userId).pk, prefix: webhookDeliveriesPartition(userId).prefix }];
  const pages = await Promise.all(sources.map((source) => readSource(source, q)));
  const descending = q.order === 'desc';
  const merged = pages
    .flatMap((p) => p.items)
    .filter((d) => d.id !== q.after)
    .sort((a, b) => (descending ? b.id.localeCompare(a.id) : a.id.localeCompare(b.id)));
  const more = merged.length > q.limit || pages.some((p) => p.truncated);
  return { items: merged.slice(0, q.limit), more };
}

/** Up to `limit + 1` items of one source after the cursor, in the page's order. */
async function readSource(source: { index?: 'gsi1' | 'gsi2'; pk: string; prefix: string }, q: DeliveryPageQuery) {
  const pkName = source.index ? `${source.index}pk` : 'pk';
  const skName = source.index ? `${source.index}sk` : 'sk';
  const values: Record<string, unknown> = { ':pk': source.pk };
  let range: string;
  if (q.after === undefined) {
    range = source.prefix ? ` AND begins_with(${skName}, :prefix)` : '';
    if (source.prefix) values[':prefix'] = source.prefix;
  } else if (!source.prefix) {
    // An index partition holds deliveries only: everything past the cursor.
    range = ` AND ${skName} ${q.order === 'desc' ? '<' : '>'} :cursor`;
    values[':cursor'] = q.after;
  } else {
    // The user's partition holds other items too: a range within the prefix. BETWEEN is inclusive, so
    // the cursor's own item may come back, and is dropped by the caller.
    const cursor = `${source.prefix}${q.after}`;
    const [low, high] = q.order === 'desc' ? [source.prefix, cursor] : [cursor, `${source.prefix}~`];
    range = ` AND ${skName} BETWEEN :low AND :high`;
    Object.assign(values, { ':low': low, ':high': high });
  }
  const out = await ddb().send(
    new QueryCommand({
      TableName: table(),
      IndexName: source.index,
      KeyConditionExpression: `${pkName} = :pk${range}`,
      ExpressionAttributeValues: values,
      ScanIndexForward: q.order === 'asc',
      Limit: q.limit + 2,
    }),
  );
  const items = (out.Items ?? []).map(fromItem);
  return { items, truncated: out.LastEvaluatedKey !== undefined && items.length < q.limit + 2 };
}

/** What an attempt (or a give-up) leaves on the delivery. */
export interface DeliveryChange {
  status: DeliveryStatus;
  autoAttempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  updatedAt: string;
  /** A request was sent: one more attempt is counted. */
  sent: boolean;
  /** This was the manual retry asked for: it is no longer outstanding. */
  manualDone: boolean;
}

/** What a writer read before it sent: the scheduled attempts made and the manual retry outstanding. */
export type DeliverySeen = Pick<WebhookDeliveryRecord, 'endpointId' | 'autoAttempts' | 'manualRetryAt'>;

/**
 * Records an attempt's outcome if neither the scheduled attempts nor the outstanding manual retry
 * moved since `seen` was read (two copies of one queue message cannot both count one); the count of
 * requests sent goes up by an ADD, so a scheduled and a manual attempt recorded together both count.
 * Undefined when the delivery moved on: the caller reads it again and decides.
 */
export async function recordDeliveryChange(
  userId: string,
  deliveryId: string,
  seen: DeliverySeen,
  c: DeliveryChange,
): Promise<WebhookDeliveryRecord | undefined> {
  const manualRetryAt = c.manualDone ? null : seen.manualRetryAt;
  const due = dueAt({ status: c.status, nextAttemptAt: c.nextAttemptAt, manualRetryAt });
  // Null fields are not stored (see defineEntity): they are removed.
  const nullable = setOrRemove<WebhookDeliveryRecord>({
    lastStatusCode: c.lastStatusCode,
    lastError: c.lastError,
    nextAttemptAt: c.nextAttemptAt,
    manualRetryAt,
  });
  const autoSeen = '(autoAttempts = :auto OR (attribute_not_exists(autoAttempts) AND attempts = :auto))';
  const manualSeen = seen.manualRetryAt === null ? 'attribute_not_exists(manualRetryAt)' : 'manualRetryAt = :manual';
  const item = await updateIf({
    TableName: table(),
    Key: webhookDeliveryKey(userId, deliveryId),
    ...deliveries.update({
      set: {
        status: c.status,
        autoAttempts: c.autoAttempts,
        updatedAt: c.updatedAt,
        ...nullable.set,
        ...webhookDeliveryListIndexKey(userId, seen.endpointId, c.status, deliveryId),
        ...dueIndex(deliveryId, due),
      },
      add: { attempts: c.sent ? 1 : undefined },
      remove: [...nullable.remove, ...(due ? [] : (['gsi3pk', 'gsi3sk'] as const))],
      condition: {
        expression: `attribute_exists(pk) AND ${autoSeen} AND ${manualSeen}`,
        values: {
          ':auto': seen.autoAttempts,
          ...(seen.manualRetryAt === null ? {} : { ':manual': seen.manualRetryAt }),
        },
      },
    }),
  });
  return item ? fromItem(item) : undefined;
}

/**
 * Asks for a manual retry: the delivery is pending again and due now, unless a manual retry is
 * outstanding already (undefined: parallel requests ask for one retry, which is sent once).
 */
export async function requestManualRetry(
  userId: string,
  deliveryId: string,
  endpointId: string,
  at: string,
): Promise<WebhookDeliveryRecord | undefined> {
  const item = await updateIf({
    TableName: table(),
    Key: webhookDeliveryKey(userId, deliveryId),
    ...deliveries.update({
      set: {
        status: 'pending',
        manualRetryAt: at,
        updatedAt: at,
        ...webhookDeliveryListIndexKey(userId, endpointId, 'pending', deliveryId),
        ...webhookDueIndexKey(deliveryId, at),
      },
      condition: 'attribute_exists(pk) AND attribute_not_exists(manualRetryAt)',
    }),
  });
  return item ? fromItem(item) : undefined;
}

/** Deliveries owing an attempt at or before `atIso` (a manual retry, a scheduled one or both): a Query per shard of the sparse index. */
export async function listDueDeliveries(
  atIso: string,
): Promise<{ userId: string; deliveryId: string; manual: boolean; scheduled: boolean }[]> {
  const items = await queryDueShards(WEBHOOK_DUE_SHARDS, webhookDuePartition, webhookIndexUpTo(atIso));
  return items.map(fromItem).map((d) => ({
    userId: d.userId,
    deliveryId: d.id,
    manual: d.manualRetryAt !== null,
    scheduled: d.status === 'pending' && d.nextAttemptAt !== null && d.nextAttemptAt <= atIso,
  }));
}
