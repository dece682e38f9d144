/**
 * Pure rules of a credit balance: permanent credits plus expiring grants. Spending takes from the
 * grant that expires first, then from permanent credits. No I/O here.
 */
export interface Grant {
  id: string;
  amount: number;
  expiresAt: string;
  source: string;
}

export interface Wallet {
  permanent: number;
  grants: Grant[];
}

/** Where spent credits came from, so a release can put them back where they were. */
export interface Allocation {
  /** `permanent` or a grant id. */
  source: string;
  amount: number;
  /** For grants: kept so a grant spent to zero (and dropped) can be restored. */
  expiresAt?: string;
  origin?: string;
}

const isLive = (grant: Grant, now: Date) => Date.parse(grant.expiresAt) > now.getTime() && grant.amount > 0;

export function liveGrants(wallet: Wallet, now: Date): Grant[] {
  return wallet.grants
    .filter((g) => isLive(g, now))
    .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt) || a.id.localeCompare(b.id));
}

export function availableCredits(wallet: Wallet, now: Date): number {
  return wallet.permanent + liveGrants(wallet, now).reduce((sum, g) => sum + g.amount, 0);
}

export function earliestExpiry(wallet: Wallet, now: Date): string | null {
  return liveGrants(wallet, now)[0]?.expiresAt ?? null;
}

/** Drops expired and empty grants; they can never be spent again. */
export function pruneWallet(wallet: Wallet, now: Date): Wallet {
  return { permanent: wallet.permanent, grants: liveGrants(wallet, now) };
}

export type SpendPlan = { ok: true; wallet: Wallet; allocation: Allocation[] } | { ok: false; available: number };

export function planSpend(wallet: Wallet, amount: number, now: Date): SpendPlan {
  if (!Number.isInteger(amount) || amount < 0) throw new Error(`Invalid credit amount ${amount}`);
  const available = availableCredits(wallet, now);
  if (amount > available) return { ok: false, available };
  let remaining = amount;
  const allocation: Allocation[] = [];
  const grants = liveGrants(wallet, now).map((g) => {
    const take = Math.min(g.amount, remaining);
    remaining -= take;
    if (take > 0) allocation.push({ source: g.id, amount: take, expiresAt: g.expiresAt, origin: g.source });
    return { ...g, amount: g.amount - take };
  });
  const fromPermanent = remaining;
  if (fromPermanent > 0) allocation.push({ source: 'permanent', amount: fromPermanent });
  return {
    ok: true,
    wallet: { permanent: wallet.permanent - fromPermanent, grants: grants.filter((g) => g.amount > 0) },
    allocation,
  };
}

/**
 * Puts `amount` of an earlier allocation back, latest-expiring source first (the reverse of the
 * spend order). Credits whose grant has expired meanwhile are not revived.
 */
export function restoreAllocation(wallet: Wallet, allocation: Allocation[], amount: number, now: Date): Wallet {
  let remaining = amount;
  let permanent = wallet.permanent;
  const grants = new Map(wallet.grants.map((g) => [g.id, { ...g }]));
  for (const part of [...allocation].reverse()) {
    const back = Math.min(part.amount, remaining);
    if (back <= 0) break;
    remaining -= back;
    if (part.source === 'permanent') {
      permanent += back;
      continue;
    }
    const expiresAt = grants.get(part.source)?.expiresAt ?? part.expiresAt;
    if (!expiresAt || Date.parse(expiresAt) <= now.getTime()) continue;
    const existing = grants.get(part.source);
    grants.set(part.source, {
      id: part.source,
      expiresAt,
      source: existing?.source ?? part.origin ?? 'grant',
      amount: (existing?.amount ?? 0) + back,
    });
  }
  return { permanent, grants: [...grants.values()].filter((g) => isLive(g, now)) };
}

export function addGrant(wallet: Wallet, grant: Grant): Wallet {
  if (wallet.grants.some((g) => g.id === grant.id)) return wallet;
  return { permanent: wallet.permanent, grants: [...wallet.grants, grant] };
}
