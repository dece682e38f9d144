/** Credit prices, all read from the package table. */
import {
  CONTACT_TIERS,
  INCREASE_LIMIT_BLOCK,
  NETWORK_DEPTH_CREDITS_PER_RECORD,
  type Channel,
  type ContactTier,
  type PackageDef,
} from './packages';

/** Base plus per record: 10 records of vc-shortlist-v1 = 100 + 10 x 10 = 200. */
export const executeCredits = (pkg: PackageDef, records: number): number =>
  pkg.price.base + pkg.price.perRecord * records;

export const increaseLimitCredits = (pkg: PackageDef, records: number): number => pkg.price.perRecord * records;
export const increaseLimitRecords = (blocks: number): number => blocks * INCREASE_LIMIT_BLOCK;

export const networkDepthCredits = (records: number): number => NETWORK_DEPTH_CREDITS_PER_RECORD * records;

const tierIndex = (tier: ContactTier | null | undefined) => (tier ? CONTACT_TIERS.findIndex((t) => t.id === tier) : -1);
export const tierCredits = (tier: ContactTier | null | undefined): number =>
  tier ? CONTACT_TIERS[tierIndex(tier)].credits : 0;
export const isAbove = (tier: ContactTier, than: ContactTier | null | undefined): boolean =>
  tierIndex(tier) > tierIndex(than);
export const higherTier = (a: ContactTier | null | undefined, b: ContactTier | null | undefined): ContactTier | null =>
  tierIndex(a) >= tierIndex(b) ? (a ?? null) : (b ?? null);

/**
 * What unlocking one contact at `requested` costs when it is already unlocked at `current`: the
 * difference between the tiers' prices, nothing when it is already at or above the tier.
 */
export const unlockCredits = (requested: ContactTier, current: ContactTier | null | undefined): number =>
  isAbove(requested, current) ? tierCredits(requested) - tierCredits(current) : 0;

/** Channels a tier reveals (its own and every tier below), limited to what the package offers. */
export function channelsAt(tier: ContactTier, pkg: PackageDef): Channel[] {
  const upTo = CONTACT_TIERS.slice(0, tierIndex(tier) + 1).flatMap((t) => t.channels as readonly Channel[]);
  return upTo.filter((c) => pkg.channels.includes(c));
}

/** A tier is offered when the package has the channel that defines it (hackathon-builder-v1 has no phone tier). */
export const tierOffered = (tier: ContactTier, pkg: PackageDef): boolean =>
  (CONTACT_TIERS[tierIndex(tier)].channels as readonly Channel[]).some((c) => pkg.channels.includes(c));
