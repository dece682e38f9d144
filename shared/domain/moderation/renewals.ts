/**
 * The renewal sweep: run every 5 minutes by EventBridge, by the local server's schedule and by
 * `npm run admin -- renewals`. Sweeps may overlap or run late; each step is a conditional write on
 * the period the sweep saw, and the charge id is fixed per community and period, so a period is
 * charged once whoever gets there first.
 */
import { now } from '#shared/adapters/ports';
import { InsufficientCreditsError } from '#shared/domain/errors';
import {
  advanceBillingPeriod,
  expireAtPeriodEndItem,
  listDueCommunities,
  suspendForNonPaymentItem,
  type CommunityRecord,
} from '#shared/store/communitiesRepo';
import { TransactionConditionError, writeTogether, type TransactItem } from '#shared/store/transactions';
import { writeIfCondition } from '#shared/store/client';
import { announce, webhookEvent } from '#shared/domain/webhooks/outbox';
import { chargeCredits } from '#shared/domain/credits/credits';
import { COMMUNITY_PRICING } from './communityTypes';
import { decideRenewal, periodEnded, renewalChargeId } from './renewalRules';
import { logger } from '#shared/observability/logger';
import { getPlatformRecord } from '#shared/store/platformRepo';
import { PLATFORMS } from '#shared/platforms/registry';
import { PLATFORM_CORE } from './platformCore';

export type RenewalOutcome = 'renewed' | 'suspended' | 'still_suspended' | 'expired' | 'skipped';

/**
 * How many due communities ended each way; `skipped`: another sweep or the owner got there first, or a sweep
 * for a later instant left a period that has not ended yet to run its course.
 */
export type SweepReport = { at: string; due: number; failed: number } & Record<RenewalOutcome, number>;

const SWEEP_CONCURRENCY = 8;

/** A guarded community change written with its webhook event (the outbox); false when the guard failed. */
async function changeWithEvent(
  c: CommunityRecord,
  change: TransactItem,
  type: 'community.suspended' | 'community.expired',
  at: string,
  busDetail: Record<string, unknown>,
): Promise<boolean> {
  const event = webhookEvent(c.userId, type, { kind: 'community', id: c.id }, at, { busDetail });
  if (!(await writeIfCondition(() => writeTogether({ community: change, event: event.item })))) return false;
  await announce([event]);
  return true;
}

/**
 * Monitoring stopped (suspended, expired) or started again (a suspended community paid): a platform that
 * acts by itself on what the service wrote there (Discord's AutoMod) is told. The billing change stands
 * whatever happens here; the platform's own retry (the AutoMod sync sweep) takes over from a lost request.
 */
async function monitoringChanged(c: CommunityRecord): Promise<void> {
  // A type no platform module knows (data from before the current types) has nothing there to tell.
  const hook = PLATFORMS[c.type]?.onMonitoringChanged;
  if (!hook) return;
  try {
    await hook(c, await getPlatformRecord(c.id), PLATFORM_CORE);
  } catch (err) {
    logger.error('platform not told of a monitoring change', { communityId: c.id, error: err as Error });
  }
}

/** The sweep's step for one community it found due by `dueBy`. */
export async function renewCommunity(c: CommunityRecord, dueBy: Date): Promise<RenewalOutcome> {
  // Whatever instant selected the community, every write happens at the present: a wallet pruned
  // or a ledger entry dated at another instant would lose live grants or misplace the charge.
  const present = now();
  const decision = decideRenewal(c, dueBy, present);
  const atIso = present.toISOString();
  if (decision.kind === 'not_due') return 'skipped';
  if (decision.kind === 'expire') {
    const expired = await changeWithEvent(c, expireAtPeriodEndItem(c, atIso), 'community.expired', atIso, {
      community_id: c.id,
      user_id: c.userId,
    });
    if (expired) await monitoringChanged(c);
    return expired ? 'expired' : 'skipped';
  }
  const renewed = webhookEvent(c.userId, 'community.renewed', { kind: 'community', id: c.id }, atIso, {
    busDetail: {
      community_id: c.id,
      user_id: c.userId,
      period: decision.period,
      next_billing_at: decision.nextBillingAt,
    },
  });
  try {
    const outcome = await chargeCredits({
      userId: c.userId,
      toolName: COMMUNITY_PRICING.toolName,
      refId: c.id,
      amount: c.monthlyCreditCost,
      chargeId: renewalChargeId(c.id, decision.period),
      with: { community: advanceBillingPeriod(c, decision.period, decision.nextBillingAt, atIso), event: renewed.item },
    });
    if (outcome.alreadyApplied) return 'skipped';
  } catch (err) {
    // Another sweep moved the period (or the owner deleted the community or switched renewal off) first.
    if (err instanceof TransactionConditionError) return 'skipped';
    if (err instanceof InsufficientCreditsError) {
      if (c.billingState === 'suspended') return 'still_suspended';
      // Due only by a later instant: its paid period goes on, and the sweep at its end tries again.
      if (!periodEnded(c, present)) return 'skipped';
      const suspended = await changeWithEvent(c, suspendForNonPaymentItem(c, atIso), 'community.suspended', atIso, {
        community_id: c.id,
        user_id: c.userId,
        period: decision.period,
      });
      if (suspended) await monitoringChanged(c);
      return suspended ? 'suspended' : 'skipped';
    }
    throw err;
  }
  await announce([renewed]);
  if (c.billingState === 'suspended') await monitoringChanged(c);
  return 'renewed';
}

/**
 * Renews, suspends or expires, now, every community due by `dueBy` (default: now). A later `dueBy`
 * renews ahead of time; it never moves the instant money moves or grants expire at.
 */
export async function renewDueCommunities(dueBy: Date = now()): Promise<SweepReport> {
  const due = await listDueCommunities(dueBy.toISOString());
  const report: SweepReport = {
    at: dueBy.toISOString(),
    due: due.length,
    renewed: 0,
    suspended: 0,
    still_suspended: 0,
    expired: 0,
    skipped: 0,
    failed: 0,
  };
  const queue = [...due];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      try {
        report[await renewCommunity(c, dueBy)] += 1;
      } catch (err) {
        // One community's trouble must not hold back the others; the next sweep tries it again.
        report.failed += 1;
        logger.error('renewal failed', { communityId: c.id, error: err as Error });
      }
    }
  };
  await Promise.all(Array.from({ length: SWEEP_CONCURRENCY }, worker));
  return report;
}
