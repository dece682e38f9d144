import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Allocation, Wallet } from '#shared/domain/credits/wallet';
import { ddb, table } from './client';
import { chargeGuardKey, ledgerEntryKey, ledgerRange, reservationKey, walletKey } from './keys';
import type { ItemRead } from './batch';
import type { TransactItem } from './transactions';
import { queryAll } from './query';

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

const walletOf = (Item: Record<string, unknown> | undefined): StoredWallet => ({
  permanent: (Item?.permanent as number | undefined) ?? 0,
  grants: (Item?.grants as Wallet['grants'] | undefined) ?? [],
  version: (Item?.version as number | undefined) ?? 0,
});

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
      Item: {
        ...walletKey(userId),
        entity: 'wallet',
        userId,
        permanent: next.permanent,
        grants: next.grants,
        version: expectedVersion + 1,
        updatedAt,
      },
      ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(pk) OR version = :v' : 'version = :v',
      ExpressionAttributeValues: { ':v': expectedVersion },
    },
  };
}

export function putLedgerEntry(userId: string, entry: LedgerEntry): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: { ...ledgerEntryKey(userId, entry.created_at, entry.charge_id), entity: 'ledger', ...entry },
    },
  };
}

export function putChargeGuard(userId: string, chargeId: string, createdAt: string): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: { ...chargeGuardKey(userId, chargeId), entity: 'chargeGuard', createdAt },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export function putReservation(userId: string, reservation: Reservation): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: { ...reservationKey(userId, reservation.reservationId), entity: 'reservation', ...reservation },
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

export async function getReservation(userId: string, reservationId: string): Promise<Reservation | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: reservationKey(userId, reservationId), ConsistentRead: true }),
  );
  return Item as Reservation | undefined;
}

export async function chargeWasApplied(userId: string, chargeId: string): Promise<boolean> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: chargeGuardKey(userId, chargeId), ConsistentRead: true }),
  );
  return Item !== undefined;
}

/** Ledger entries created in [fromIso, toIso). */
export async function listLedger(userId: string, fromIso: string, toIso: string): Promise<LedgerEntry[]> {
  const range = ledgerRange(userId, fromIso, toIso);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': range.pk, ':from': range.from, ':to': range.to },
  });
  // BETWEEN is inclusive; the range's end is exclusive.
  return items.filter((item) => (item.sk as string) < range.to) as LedgerEntry[];
}
