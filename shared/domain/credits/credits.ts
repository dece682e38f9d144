/**
 * The one owner of credit balances. Every charge, reservation, settlement, refund and grant goes
 * through here, as a single DynamoDB transaction guarded by the wallet's version: an interleaving
 * of requests can make one retry, never overdraw or double-charge. Callers pass the items that must
 * be written with the money move (`with`) so that "charged" and "created" cannot come apart. When one
 * of those fails its condition, the move throws a TransactionConditionError naming only the caller's
 * items (never the credit module's own: the wallet, the guard, the ledger entry, the credits.low event).
 */
import { InsufficientCreditsError } from '#shared/domain/errors';
import { now } from '#shared/adapters/ports';
import {
  chargeWasApplied,
  deleteReservation,
  getReservation,
  growReservation,
  listLedger,
  loadWallet,
  putChargeGuard,
  putLedgerEntry,
  putReservation,
  putWalletIfUnchanged,
  type LedgerEntry,
  type StoredWallet,
} from '#shared/store/walletRepo';
import {
  isTransactionConflict,
  TransactionConditionError,
  writeTogether,
  type TransactItem,
  type TransactItems,
} from '#shared/store/transactions';
import {
  addGrant,
  availableCredits,
  earliestExpiry,
  liveGrants,
  planSpend,
  pruneWallet,
  restoreAllocation,
  type Wallet,
} from './wallet';
import { recordMetric } from '#shared/observability/metrics';
import { recordCreditMove } from './creditMeter';
import { oneMoveAtATime } from './accountQueue';
import { creditsLowEvent } from '#shared/domain/webhooks/creditsLow';
import { announce } from '#shared/domain/webhooks/outbox';

const MAX_ATTEMPTS = 60;

export interface MoneyMove {
  userId: string;
  /** Ledger tool name: package id, contact_unlock, bd_job, growth_run, moderation_community, ... */
  toolName: string;
  /** What the money was for (result id, job id, community id). */
  refId: string;
  /** Items written in the same transaction, by name (not wallet, guard, ledger or creditsLow: those are the move's own). */
  with?: TransactItems;
  /**
   * The wallet as the caller read it moments ago (with its other items, in one request): the first
   * attempt plans on it instead of reading it again. The transaction's version condition still decides,
   * so a wallet that moved meanwhile only makes the move read it afresh and try again.
   */
  wallet?: StoredWallet;
}

export interface MoveOutcome {
  /** The same id was applied before: nothing was written this time. */
  alreadyApplied: boolean;
  balance: number;
}

type Attempt = { done: true; outcome: MoveOutcome } | { done: false };

/**
 * A move's own items: the wallet under its version condition, the item whose failed condition means
 * "this move was already applied" (a charge guard, the reservation), and the ledger entry.
 */
type MoveItems = { wallet: TransactItem; guard?: TransactItem; ledger?: TransactItem; reservation?: TransactItem };

/**
 * Runs `build` against a freshly read wallet and writes the transaction it returns, retrying when
 * another writer moved the wallet first.
 */
async function moveMoney(
  userId: string,
  extras: TransactItems,
  build: (
    wallet: Wallet & { version: number },
    at: Date,
    prefetched: boolean,
  ) => Promise<{ items: MoveItems; balance: number; next: Wallet } | Attempt>,
  prefetched?: StoredWallet,
): Promise<MoveOutcome> {
  // A move that waited for another of its account read the wallet before that one wrote: it starts from
  // the wallet that one wrote instead (a write from elsewhere meanwhile fails the version condition).
  return oneMoveAtATime(
    userId,
    (waited) => {
      const handed = handOff.get(userId);
      handOff.delete(userId);
      return moveMoneyNow(userId, extras, build, waited ? handed : prefetched, (written) =>
        handOff.set(userId, written),
      );
    },
    () => handOff.delete(userId),
  );
}

/** The wallet the last move of an account wrote, for the next move queued behind it in this process. */
const handOff = new Map<string, StoredWallet>();

async function moveMoneyNow(
  userId: string,
  extras: TransactItems,
  build: (
    wallet: Wallet & { version: number },
    at: Date,
    prefetched: boolean,
  ) => Promise<{ items: MoveItems; balance: number; next: Wallet } | Attempt>,
  prefetched?: StoredWallet,
  wrote?: (wallet: StoredWallet) => void,
): Promise<MoveOutcome> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const given = attempt === 0 ? prefetched : undefined;
    const wallet = given ?? (await loadWallet(userId));
    const at = now();
    const built = await build(wallet, at, given !== undefined);
    if ('done' in built) {
      if (built.done) return built.outcome;
      continue;
    }
    // A move that takes the balance below the low mark writes its credits.low event with it (the outbox).
    const low = creditsLowEvent(userId, availableCredits(wallet, at), built.balance, at);
    try {
      await writeTogether(built.items, extras, { creditsLow: low?.item });
      wrote?.({ ...built.next, version: wallet.version + 1 });
      if (low) await announce([low]);
      return { alreadyApplied: false, balance: built.balance };
    } catch (err) {
      if (err instanceof TransactionConditionError) {
        if (err.failed.has('guard'))
          return { alreadyApplied: true, balance: availableCredits(await loadWallet(userId), now()) };
        const failedExtras = err.failedAmong(extras);
        if (failedExtras.length > 0) throw new TransactionConditionError(failedExtras, err.conflicted, { cause: err });
        // Only the move's own items failed: the wallet moved (try again), or something that should not happen.
        if (!err.failed.has('wallet') && !err.conflicted)
          throw new Error(`Credit move for ${userId} failed on ${[...err.failed].join(', ')}`, { cause: err });
      } else if (!isTransactionConflict(err)) {
        throw err;
      }
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(10 + attempt * 5, 100)));
    }
  }
  throw new Error(`Credit move for ${userId} did not settle after ${MAX_ATTEMPTS} attempts`);
}

/**
 * Charges `amount` now, once per `chargeId`: a retry with the same id is a no-op. A zero amount still
 * writes the `with` items (a free result is still a result) but no ledger entry.
 */
/** Reports an applied move that touched money to the request's credit meter (the X-Credits-* headers). */
async function metered<T extends MoveOutcome>(
  userId: string,
  outcome: Promise<T>,
  spent: (o: T) => number | null,
): Promise<T> {
  const o = await outcome;
  const amount = o.alreadyApplied ? null : spent(o);
  if (amount !== null) recordCreditMove(userId, amount, o.balance);
  return o;
}

export const chargeCredits = (move: MoneyMove & { amount: number; chargeId: string }): Promise<MoveOutcome> =>
  metered(move.userId, chargeOnce(move), () => (move.amount > 0 ? move.amount : null));

async function chargeOnce(move: MoneyMove & { amount: number; chargeId: string }): Promise<MoveOutcome> {
  if (move.amount === 0) {
    await writeTogether(move.with ?? {});
    return { alreadyApplied: false, balance: availableCredits(move.wallet ?? (await loadWallet(move.userId)), now()) };
  }
  const outcome = await moveMoney(
    move.userId,
    move.with ?? {},
    async (wallet, at, prefetched) => {
      const plan = planSpend(pruneWallet(wallet, at), move.amount, at);
      if (!plan.ok) {
        // Too little in the caller's earlier read: decide on the wallet as it is now.
        if (prefetched) return { done: false };
        if (await chargeWasApplied(move.userId, move.chargeId))
          return { done: true, outcome: { alreadyApplied: true, balance: plan.available } };
        throw new InsufficientCreditsError(move.amount, plan.available);
      }
      const createdAt = at.toISOString();
      const entry: LedgerEntry = {
        tool_name: move.toolName,
        credits: move.amount,
        ref_id: move.refId,
        created_at: createdAt,
        charge_id: move.chargeId,
      };
      return {
        items: {
          wallet: putWalletIfUnchanged(move.userId, wallet.version, plan.wallet, createdAt),
          guard: putChargeGuard(move.userId, move.chargeId, createdAt),
          ledger: putLedgerEntry(move.userId, entry),
        },
        next: plan.wallet,
        balance: availableCredits(plan.wallet, at),
      };
    },
    move.wallet,
  );
  if (!outcome.alreadyApplied) recordMetric('CreditsCharged', move.amount, { tool: move.toolName });
  return outcome;
}

/** Sets `amount` aside for work that will be settled later; once per `reservationId`. */
export const reserveCredits = (move: MoneyMove & { amount: number; reservationId: string }): Promise<MoveOutcome> =>
  metered(move.userId, reserveOnce(move), () => (move.amount > 0 ? move.amount : null));

async function reserveOnce(move: MoneyMove & { amount: number; reservationId: string }): Promise<MoveOutcome> {
  return moveMoney(move.userId, move.with ?? {}, async (wallet, at, prefetched) => {
    const plan = planSpend(pruneWallet(wallet, at), move.amount, at);
    if (!plan.ok) {
      // Too little in a wallet handed over rather than read: decide on the wallet as it is now.
      if (prefetched) return { done: false };
      if (await getReservation(move.userId, move.reservationId))
        return { done: true, outcome: { alreadyApplied: true, balance: plan.available } };
      throw new InsufficientCreditsError(move.amount, plan.available);
    }
    const createdAt = at.toISOString();
    return {
      items: {
        wallet: putWalletIfUnchanged(move.userId, wallet.version, plan.wallet, createdAt),
        // A reservation that exists already: this one was made before.
        guard: putReservation(move.userId, {
          reservationId: move.reservationId,
          amount: move.amount,
          allocation: plan.allocation,
          toolName: move.toolName,
          refId: move.refId,
          createdAt,
        }),
      },
      next: plan.wallet,
      balance: availableCredits(plan.wallet, at),
    };
  });
}

/**
 * Adds `amount` to an open reservation: work that runs past what it set aside reserves more as it goes,
 * written with the state it pays for (`with`). Too little available: InsufficientCreditsError. A
 * reservation settled meanwhile fails the move; its owner's own items (`with`) say why.
 */
export const topUpReservation = (
  move: Omit<MoneyMove, 'toolName' | 'refId'> & { amount: number; reservationId: string },
): Promise<MoveOutcome> => metered(move.userId, topUpOnce(move), () => (move.amount > 0 ? move.amount : null));

async function topUpOnce(
  move: Omit<MoneyMove, 'toolName' | 'refId'> & { amount: number; reservationId: string },
): Promise<MoveOutcome> {
  return moveMoney(
    move.userId,
    move.with ?? {},
    async (wallet, at, prefetched) => {
      const plan = planSpend(pruneWallet(wallet, at), move.amount, at);
      if (!plan.ok) {
        if (prefetched) return { done: false };
        throw new InsufficientCreditsError(move.amount, plan.available);
      }
      return {
        items: {
          wallet: putWalletIfUnchanged(move.userId, wallet.version, plan.wallet, at.toISOString()),
          reservation: growReservation(move.userId, move.reservationId, move.amount, plan.allocation),
        },
        next: plan.wallet,
        balance: availableCredits(plan.wallet, at),
      };
    },
    move.wallet,
  );
}

export interface SettleOutcome extends MoveOutcome {
  charged: number;
  released: number;
  /** What of `released` is available again: less when a grant it came from has expired since. */
  returned: number;
}

/**
 * Ends a reservation: `chargedAmount` (capped at what was reserved) becomes a ledger charge and the
 * rest goes back where it came from. Settling twice is a no-op.
 */
/**
 * A settlement gives back what was reserved and not charged: a negative spend for the meter, of what the
 * balance really got back (a part taken from a grant that has expired since is not revived).
 */
export const settleReservation = (
  move: Omit<MoneyMove, 'toolName' | 'refId'> & { reservationId: string; chargedAmount: number },
): Promise<SettleOutcome> =>
  metered(move.userId, settleOnce(move), (o) => (o.charged + o.released > 0 ? -o.returned : null));

async function settleOnce(
  move: Omit<MoneyMove, 'toolName' | 'refId'> & { reservationId: string; chargedAmount: number },
): Promise<SettleOutcome> {
  let charged = 0;
  let released = 0;
  let returned = 0;
  let tool = '';
  const outcome = await moveMoney(move.userId, move.with ?? {}, async (wallet, at) => {
    const reservation = await getReservation(move.userId, move.reservationId);
    if (!reservation) return { done: true, outcome: { alreadyApplied: true, balance: availableCredits(wallet, at) } };
    charged = Math.max(0, Math.min(Math.floor(move.chargedAmount), reservation.amount));
    released = reservation.amount - charged;
    tool = reservation.toolName;
    const before = pruneWallet(wallet, at);
    const next = restoreAllocation(before, reservation.allocation, released, at);
    returned = availableCredits(next, at) - availableCredits(before, at);
    const createdAt = at.toISOString();
    const items: MoveItems = {
      wallet: putWalletIfUnchanged(move.userId, wallet.version, next, createdAt),
      // A reservation that is gone already: it was settled before.
      guard: deleteReservation(move.userId, move.reservationId),
    };
    if (charged > 0) {
      items.ledger = putLedgerEntry(move.userId, {
        tool_name: reservation.toolName,
        credits: charged,
        ref_id: reservation.refId,
        created_at: createdAt,
        charge_id: `settle-${move.reservationId}`,
      });
    }
    return { items, next, balance: availableCredits(next, at) };
  });
  if (outcome.alreadyApplied) return { ...outcome, charged: 0, released: 0, returned: 0 };
  recordMetric('CreditsCharged', charged, { tool });
  return { ...outcome, charged, released, returned };
}

/** Gives credits back as permanent credits, with a negative ledger entry of the same tool; once per `chargeId`. */
export const refundCredits = (move: MoneyMove & { amount: number; chargeId: string }): Promise<MoveOutcome> =>
  metered(move.userId, refundOnce(move), () => (move.amount > 0 ? -move.amount : null));

async function refundOnce(move: MoneyMove & { amount: number; chargeId: string }): Promise<MoveOutcome> {
  const outcome = await moveMoney(move.userId, move.with ?? {}, async (wallet, at) => {
    const next = { ...pruneWallet(wallet, at), permanent: wallet.permanent + move.amount };
    const createdAt = at.toISOString();
    return {
      items: {
        wallet: putWalletIfUnchanged(move.userId, wallet.version, next, createdAt),
        guard: putChargeGuard(move.userId, move.chargeId, createdAt),
        ledger: putLedgerEntry(move.userId, {
          tool_name: move.toolName,
          credits: -move.amount,
          ref_id: move.refId,
          created_at: createdAt,
          charge_id: move.chargeId,
        }),
      },
      next,
      balance: availableCredits(next, at),
    };
  });
  if (!outcome.alreadyApplied) recordMetric('CreditsRefunded', move.amount, { tool: move.toolName });
  return outcome;
}

export interface GrantRequest {
  userId: string;
  grantId: string;
  amount: number;
  source: string;
  /** Omitted: permanent credits. */
  expiresAt?: string;
  with?: TransactItems;
}

/** Adds credits (a period grant, or permanent credits from an operator); once per `grantId`. */
export async function grantCredits(grant: GrantRequest): Promise<MoveOutcome> {
  return moveMoney(grant.userId, grant.with ?? {}, async (wallet, at) => {
    const pruned = pruneWallet(wallet, at);
    const createdAt = at.toISOString();
    if (grant.expiresAt) {
      if (wallet.grants.some((g) => g.id === grant.grantId))
        return { done: true, outcome: { alreadyApplied: true, balance: availableCredits(pruned, at) } };
      const next = addGrant(pruned, {
        id: grant.grantId,
        amount: grant.amount,
        expiresAt: grant.expiresAt,
        source: grant.source,
      });
      // A grant spent to zero (or expired) leaves the wallet, so the wallet alone cannot tell it was applied: the guard can.
      return {
        items: {
          wallet: putWalletIfUnchanged(grant.userId, wallet.version, next, createdAt),
          guard: putChargeGuard(grant.userId, `grant-${grant.grantId}`, createdAt),
        },
        next,
        balance: availableCredits(next, at),
      };
    }
    const next = { ...pruned, permanent: pruned.permanent + grant.amount };
    return {
      items: {
        wallet: putWalletIfUnchanged(grant.userId, wallet.version, next, createdAt),
        guard: putChargeGuard(grant.userId, `grant-${grant.grantId}`, createdAt),
      },
      next,
      balance: availableCredits(next, at),
    };
  });
}

export interface BalanceView {
  available: number;
  permanent: number;
  earliestExpiry: string | null;
  activeGrantTotal: number;
}

export async function getBalance(userId: string): Promise<BalanceView> {
  const wallet = await loadWallet(userId);
  const at = now();
  return {
    available: availableCredits(wallet, at),
    permanent: wallet.permanent,
    earliestExpiry: earliestExpiry(wallet, at),
    activeGrantTotal: liveGrants(wallet, at).reduce((s, g) => s + g.amount, 0),
  };
}

export const ledgerBetween = listLedger;
