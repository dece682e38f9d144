import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table, writeIfCondition } from './client';
import { checkoutSessionKey, paymentEventKey } from './keys';
import type { TransactItem } from './transactions';
import { defineEntity } from './entity';

export interface CheckoutRecord {
  sessionId: string;
  userId: string;
  addOns: string[];
  status: 'open' | 'paid';
  provider: 'stripe' | 'local';
  createdAt: string;
}

const checkouts = defineEntity<CheckoutRecord>()({
  name: 'checkout',
  key: (r: Pick<CheckoutRecord, 'sessionId'>) => checkoutSessionKey(r.sessionId),
});

/** Guard that makes each payment event apply once; its record says which event was applied when. */
const paymentEvents = defineEntity<{ type: string; processedAt: string }>()({
  name: 'paymentEvent',
  key: (r: { eventId: string }) => paymentEventKey(r.eventId),
  keyOnly: ['eventId'],
});

export async function putCheckout(record: CheckoutRecord, ttlSeconds: number): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: checkouts.item(record, { ttl: ttlSeconds }),
    }),
  );
}

export async function getCheckout(sessionId: string): Promise<CheckoutRecord | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: checkoutSessionKey(sessionId), ConsistentRead: true }),
  );
  return checkouts.maybe(Item);
}

/** Marks an open session paid; false when it was paid already. */
export async function markCheckoutPaid(sessionId: string): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: checkoutSessionKey(sessionId),
        ...checkouts.update({
          set: { status: 'paid' },
          condition: { expression: '#s = :open', names: { '#s': 'status' }, values: { ':open': 'open' } },
        }),
      }),
    ),
  );
}

/** Guard that makes each payment event apply once; written with the event's effects. */
export function paymentEventGuard(eventId: string, type: string, at: string): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: paymentEvents.item({ eventId, type, processedAt: at }),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}
