import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Allocation, Wallet } from '#shared/domain/credits/wallet';
import { ddb, table } from './client';
import { chargeGuardKey, ledgerEntryKey, ledgerRange, reservationKey, walletKey } from './keys';
import type { ItemRead } from './batch';
import type { TransactItem } from './transactions';
import { queryAll } from './query';
import { defineEntity } from './entity';

export interface StoredWallet extends Wallet {
  version: number;
}

export interface LedgerEntry {
  tool_name: string;
  credits: number;
  ref_id: string;
  created_at: string;
  charge_id: string;
}

export interface Reservation {
  reservationId: string;
  amount: number;
  allocation: Allocation[];
  toolName: string;
  refId: string;
  createdAt: string;
}

const wallets = defineEntity<StoredWallet & { userId: string; updatedAt: string }>()({
  name: 'wallet',
  key: (w: { userId: string }) => walletKey(w.userId),
});
const ledgerEntries = defineEntity<LedgerEntry>()({
  name: 'ledger',
  key: (e: LedgerEntry & { userId: string }) => ledgerEntryKey(e.userId, e.created_at, e.charge_id),
  keyOnly: ['userId'],
});
/** Written with each charge: its presence says the charge was applied. */
const chargeGuards = defineEntity<{ createdAt: string }>()({
  name: 'chargeGuard',
  key: (g: { userId: string; chargeId: string }) => chargeGuardKey(g.userId, g.chargeId),
  keyOnly: ['userId', 'chargeId'],
});
const reservations = defineEntity<Reservation>()({
  name: 'reservation',
  key: (r: Pick<Reservation, 'reservationId'> & { userId: string }) => reservationKey(r.userId, r.reservationId),
  keyOnly: ['userId'],
});

/** A user who never held credits has no wallet item: an empty wallet at version 0. */
const walletOf = (Item: Record<string, unknown> | undefined): StoredWallet => {
  const stored = wallets.maybe(Item);
  return { permanent: stored?.permanent ?? 0, grants: stored?.grants ?? [], version: stored?.version ?? 0 };
};

export async function loadWallet(userId: string): Promise<StoredWallet> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: walletKey(userId), ConsistentRead: true }),
  );
  return walletOf(Item);
}

/** The wallet, for a readTogether with the caller's other items (read consistently, as loadWallet). */
export const walletRead = (userId: string): ItemRead<StoredWallet> => ({ key: walletKey(userId), decode: walletOf });

/** Replaces the wallet only if nobody else changed it since it was read (optimistic concurrency). */
export function putWalletIfUnchanged(
  userId: string,
  expectedVersion: number,
  next: Wallet,
  updatedAt: string,
): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: wallets.item({
        userId,
        permanent: next.permanent,
        grants: next.grants,
        version: expectedVersion + 1,
        updatedAt,
      }),
      ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(pk) OR version = :v' : 'version = :v',
      ExpressionAttributeValues: { ':v': expectedVersion },
    },
  };
}

export function putLedgerEntry(userId: string, entry: LedgerEntry): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: ledgerEntries.item({ userId, ...entry }),
    },
  };
}

export function putChargeGuard(userId: string, chargeId: string, createdAt: string): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: chargeGuards.item({ userId, chargeId, createdAt }),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export function putReservation(userId: string, reservation: Reservation): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: reservations.item({ userId, ...reservation }),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export function deleteReservation(userId: string, reservationId: string): TransactItem {
  return {
    Delete: {
      TableName: table(),
      Key: reservationKey(userId, reservationId),
      ConditionExpression: 'attribute_exists(pk)',
    },
  };
}

/**
 * Adds `amount` to an open reservation, its sources appended after the earlier ones (a release gives
 * back the latest taken first). Fails when the reservation is gone (settled).
 */
export function growReservation(
  userId: string,
  reservationId: string,
  amount: number,
  allocation: Allocation[],
): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: reservationKey(userId, reservationId),
      UpdateExpression: 'SET #amount = #amount + :amount, #allocation = list_append(#allocation, :allocation)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#amount': 'amount', '#allocation': 'allocation' },
      ExpressionAttributeValues: { ':amount': amount, ':allocation': allocation },
    },
  };
}

export async function getReservation(userId: string, reservationId: string): Promise<Reservation | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: reservationKey(userId, reservationId), ConsistentRead: true }),
  );
  return reservations.maybe(Item);
}

export async function chargeWasApplied(userId: string, chargeId: string): Promise<boolean> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: chargeGuardKey(userId, chargeId), ConsistentRead: true }),
  );
  return chargeGuards.maybe(Item) !== undefined;
}

/** Ledger entries created in [fromIso, toIso). */
export async function listLedger(userId: string, fromIso: string, toIso: string): Promise<LedgerEntry[]> {
  const range = ledgerRange(userId, fromIso, toIso);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': range.pk, ':from': range.from, ':to': range.to },
  });
  // BETWEEN is inclusive; the range's end is exclusive.
  return items.filter((item) => String(item.sk) < range.to).map(ledgerEntries.fromItem);
}
