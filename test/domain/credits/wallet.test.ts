import { describe, expect, it } from 'vitest';
import {
  availableCredits,
  earliestExpiry,
  planSpend,
  restoreAllocation,
  type Wallet,
} from '#shared/domain/credits/wallet';

const at = new Date('2026-11-22T00:00:00.000Z');
const wallet = (over: Partial<Wallet> = {}): Wallet => ({
  permanent: 100,
  grants: [
    { id: 'late', amount: 50, expiresAt: '2026-12-30T00:00:00.000Z', source: 'credits_10k' },
    { id: 'soon', amount: 30, expiresAt: '2026-12-01T00:00:00.000Z', source: 'pro' },
    { id: 'gone', amount: 999, expiresAt: '2026-11-01T00:00:00.000Z', source: 'pro' },
  ],
  ...over,
});

describe('wallet rules', () => {
  it('counts permanent credits and unexpired grants only', () => {
    expect(availableCredits(wallet(), at)).toBe(180);
    expect(earliestExpiry(wallet(), at)).toBe('2026-12-01T00:00:00.000Z');
    expect(earliestExpiry({ permanent: 5, grants: [] }, at)).toBeNull();
  });

  it('spends the grant that expires first, then the next, then permanent credits', () => {
    const plan = planSpend(wallet(), 100, at);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.allocation.map((a) => [a.source, a.amount])).toEqual([
      ['soon', 30],
      ['late', 50],
      ['permanent', 20],
    ]);
    expect(plan.wallet.permanent).toBe(80);
    expect(plan.wallet.grants).toEqual([]);
  });

  it('refuses to spend more than is available and says how much is', () => {
    expect(planSpend(wallet(), 181, at)).toEqual({ ok: false, available: 180 });
    expect(planSpend(wallet(), 180, at).ok).toBe(true);
  });

  it('rejects negative and fractional amounts', () => {
    expect(() => planSpend(wallet(), -1, at)).toThrow();
    expect(() => planSpend(wallet(), 1.5, at)).toThrow();
  });

  it('puts released credits back latest-expiring source first, reviving a grant spent to zero', () => {
    const plan = planSpend(wallet(), 100, at);
    if (!plan.ok) throw new Error('expected a plan');
    const restored = restoreAllocation(plan.wallet, plan.allocation, 60, at);
    expect(restored.permanent).toBe(100);
    expect(restored.grants.find((g) => g.id === 'late')?.amount).toBe(40);
    expect(restored.grants.find((g) => g.id === 'soon')).toBeUndefined();
    expect(availableCredits(restored, at)).toBe(140);
  });

  it('does not revive credits of a grant that expired while they were reserved', () => {
    const plan = planSpend(wallet({ permanent: 0 }), 30, at);
    if (!plan.ok) throw new Error('expected a plan');
    const later = new Date('2026-12-05T00:00:00.000Z');
    const restored = restoreAllocation(plan.wallet, plan.allocation, 30, later);
    expect(availableCredits(restored, later)).toBe(50);
  });
});
