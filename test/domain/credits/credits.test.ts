import { describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { installPorts } from '#shared/adapters/ports';
import { ManualClock } from '#shared/adapters/clock';
import {
  chargeCredits,
  getBalance,
  grantCredits,
  ledgerBetween,
  refundCredits,
  reserveCredits,
  settleReservation,
} from '#shared/domain/credits/credits';
import { InsufficientCreditsError } from '#shared/http/errors';
import { TransactionConditionError } from '#shared/store/transactions';
import { ddb, table } from '#shared/store/client';
import { uuidv7 } from '#shared/ids';
import { loadWallet } from '#shared/store/walletRepo';

const clock = new ManualClock(new Date('2026-11-22T10:00:00.000Z'));
installPorts({ clock });

async function userWith(permanent: number, grants: { amount: number; expiresAt: string }[] = []) {
  const userId = uuidv7();
  if (permanent) await grantCredits({ userId, grantId: 'start', amount: permanent, source: 'test' });
  for (const [i, g] of grants.entries())
    await grantCredits({ userId, grantId: `g${i}`, amount: g.amount, expiresAt: g.expiresAt, source: 'pro' });
  return userId;
}
const ledger = (userId: string) => ledgerBetween(userId, '2000-01-01T00:00:00.000Z', '2100-01-01T00:00:00.000Z');

/** Write transactions sent by this process (each attempt of a money move is one). */
let transactions = 0;
ddb().middlewareStack.add(
  (next) => async (args) => {
    if ('TransactItems' in (args.input as object)) transactions++;
    return next(args);
  },
  { step: 'initialize', name: 'countTransactions' },
);

describe('credits against DynamoDB Local', () => {
  it('twenty parallel moves of one account in one process each write once: none is lost to a version conflict and retried', async () => {
    const userId = await userWith(100_000);
    const before = transactions;
    const wallet = await loadWallet(userId);
    await Promise.all([
      // Half start from a wallet their caller read (as execute does), half read it themselves.
      ...Array.from({ length: 10 }, (_, i) =>
        chargeCredits({ userId, amount: 10, toolName: 'test', refId: `p${i}`, chargeId: `p${i}`, wallet }),
      ),
      ...Array.from({ length: 5 }, (_, i) =>
        reserveCredits({ userId, amount: 100, toolName: 'test', refId: `q${i}`, reservationId: `q${i}` }),
      ),
      ...Array.from({ length: 5 }, (_, i) =>
        refundCredits({ userId, amount: 1, toolName: 'test', refId: `f${i}`, chargeId: `f${i}` }),
      ),
    ]);
    expect(transactions - before).toBe(20);
    expect((await getBalance(userId)).available).toBe(100_000 - 100 - 500 + 5);
  });

  it('lets exactly 5 of 20 parallel charges through when the balance covers 5, and never goes below zero', async () => {
    const userId = await userWith(500);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        chargeCredits({ userId, amount: 100, toolName: 'test', refId: `r${i}`, chargeId: `c${i}` }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(5);
    expect(refused.every((r) => r.reason instanceof InsufficientCreditsError)).toBe(true);
    expect((await getBalance(userId)).available).toBe(0);
    expect(await ledger(userId)).toHaveLength(5);
  });

  it('applies a retried charge (same chargeId) once, also when retried in parallel', async () => {
    const userId = await userWith(1000);
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        chargeCredits({ userId, amount: 300, toolName: 'test', refId: 'r', chargeId: 'same' }),
      ),
    );
    expect(outcomes.filter((o) => !o.alreadyApplied)).toHaveLength(1);
    expect((await getBalance(userId)).available).toBe(700);
    expect(await ledger(userId)).toHaveLength(1);
  });

  it('writes nothing, not even the charge, when an item written with it fails its condition', async () => {
    const userId = await userWith(1000);
    const blocker = { pk: `TEST#${userId}`, sk: 'X' };
    await ddb().send(new PutCommand({ TableName: table(), Item: blocker }));
    const attempt = chargeCredits({
      userId,
      amount: 100,
      toolName: 'test',
      refId: 'r',
      chargeId: 'c',
      with: {
        blocker: { Put: { TableName: table(), Item: blocker, ConditionExpression: 'attribute_not_exists(pk)' } },
      },
    });
    await expect(attempt).rejects.toBeInstanceOf(TransactionConditionError);
    expect((await getBalance(userId)).available).toBe(1000);
    expect(await ledger(userId)).toHaveLength(0);
  });

  it('reserves, then settles only what was consumed, returning the rest; settling twice changes nothing', async () => {
    const userId = await userWith(100, [{ amount: 200, expiresAt: '2026-12-22T10:00:00.000Z' }]);
    await reserveCredits({ userId, amount: 250, toolName: 'bd_job', refId: 'job1', reservationId: 'job1' });
    expect((await getBalance(userId)).available).toBe(50);
    await expect(
      reserveCredits({ userId, amount: 51, toolName: 'bd_job', refId: 'job2', reservationId: 'job2' }),
    ).rejects.toMatchObject({
      code: 'insufficient_credits',
      details: { required: 51, available: 50 },
    });
    const settled = await settleReservation({ userId, reservationId: 'job1', chargedAmount: 120 });
    expect(settled).toMatchObject({ charged: 120, released: 130, alreadyApplied: false });
    expect((await settleReservation({ userId, reservationId: 'job1', chargedAmount: 120 })).alreadyApplied).toBe(true);
    const balance = await getBalance(userId);
    expect(balance.available).toBe(180);
    // The grant (expiring first) paid; permanent credits came back untouched.
    expect(balance.permanent).toBe(100);
    expect((await ledger(userId)).map((e) => [e.tool_name, e.credits])).toEqual([['bd_job', 120]]);
  });

  it('caps a settlement at the reserved amount', async () => {
    const userId = await userWith(100);
    await reserveCredits({ userId, amount: 40, toolName: 'bd_job', refId: 'j', reservationId: 'j' });
    expect((await settleReservation({ userId, reservationId: 'j', chargedAmount: 90 })).charged).toBe(40);
    expect((await getBalance(userId)).available).toBe(60);
  });

  it('refunds as a negative ledger entry of the same tool, once', async () => {
    const userId = await userWith(100);
    await chargeCredits({ userId, amount: 60, toolName: 'contact_unlock', refId: 'r', chargeId: 'c' });
    await refundCredits({ userId, amount: 20, toolName: 'contact_unlock', refId: 'r', chargeId: 'refund-c' });
    await refundCredits({ userId, amount: 20, toolName: 'contact_unlock', refId: 'r', chargeId: 'refund-c' });
    expect((await getBalance(userId)).available).toBe(60);
    expect((await ledger(userId)).map((e) => e.credits).sort()).toEqual([-20, 60].sort());
  });

  it('applies an expiring grant once per grantId, also after it was spent to zero', async () => {
    const userId = await userWith(0, [{ amount: 300, expiresAt: '2026-12-22T10:00:00.000Z' }]);
    expect(
      (await grantCredits({ userId, grantId: 'g0', amount: 300, expiresAt: '2026-12-22T10:00:00.000Z', source: 'pro' }))
        .alreadyApplied,
    ).toBe(true);
    await chargeCredits({ userId, amount: 300, toolName: 'test', refId: 'r', chargeId: 'all' });
    // The spent grant is gone from the wallet; a second application of the same grant still gives nothing.
    const again = await grantCredits({
      userId,
      grantId: 'g0',
      amount: 300,
      expiresAt: '2026-12-22T10:00:00.000Z',
      source: 'pro',
    });
    expect(again.alreadyApplied).toBe(true);
    expect((await getBalance(userId)).available).toBe(0);
  });

  it('stops counting a grant once it expires', async () => {
    const userId = await userWith(10, [{ amount: 500, expiresAt: '2026-11-23T00:00:00.000Z' }]);
    expect((await getBalance(userId)).available).toBe(510);
    clock.set(new Date('2026-11-23T00:00:00.001Z'));
    try {
      expect((await getBalance(userId)).available).toBe(10);
      await expect(
        chargeCredits({ userId, amount: 11, toolName: 't', refId: 'r', chargeId: 'c' }),
      ).rejects.toBeInstanceOf(InsufficientCreditsError);
    } finally {
      clock.set(new Date('2026-11-22T10:00:00.000Z'));
    }
  });

  it('plans on a wallet the caller already read, and a stale one only makes it read again: never overdrawn, never refused wrongly', async () => {
    // Read, then spent by someone else: the version condition fails and the charge re-plans on the real wallet.
    const spentMeanwhile = await userWith(500);
    const stale = await loadWallet(spentMeanwhile);
    await chargeCredits({ userId: spentMeanwhile, amount: 450, toolName: 'test', refId: 'other', chargeId: 'other' });
    await expect(
      chargeCredits({
        userId: spentMeanwhile,
        amount: 100,
        toolName: 'test',
        refId: 'r',
        chargeId: 'c',
        wallet: stale,
      }),
    ).rejects.toBeInstanceOf(InsufficientCreditsError);
    expect((await getBalance(spentMeanwhile)).available).toBe(50);
    expect(await ledger(spentMeanwhile)).toHaveLength(1);

    // Read, then topped up: too little in the earlier read is checked again on a fresh one.
    const toppedUp = await userWith(50);
    const before = await loadWallet(toppedUp);
    await grantCredits({ userId: toppedUp, grantId: 'top-up', amount: 500, source: 'test' });
    const outcome = await chargeCredits({
      userId: toppedUp,
      amount: 100,
      toolName: 'test',
      refId: 'r',
      chargeId: 'c',
      wallet: before,
    });
    expect(outcome).toMatchObject({ alreadyApplied: false, balance: 450 });
    expect((await getBalance(toppedUp)).available).toBe(450);

    // Up to date: charged once, and a retry with the same id and the same (now stale) read is a no-op.
    const current = await userWith(300);
    const wallet = await loadWallet(current);
    expect(
      await chargeCredits({ userId: current, amount: 100, toolName: 'test', refId: 'r', chargeId: 'same', wallet }),
    ).toMatchObject({ alreadyApplied: false, balance: 200 });
    expect(
      (await chargeCredits({ userId: current, amount: 100, toolName: 'test', refId: 'r', chargeId: 'same', wallet }))
        .alreadyApplied,
    ).toBe(true);
    expect((await getBalance(current)).available).toBe(200);
    expect(await ledger(current)).toHaveLength(1);
  });
});
