/**
 * Runs one planned delivery's platform calls in order, each once: an outcome is stored as soon as
 * the platform answers, so a retried message resumes after the last answered call. A rate limit
 * (Telegram's retry_after, Discord's Retry-After) postpones the rest by exactly that long; other
 * transient failures (5xx, network) retry through the queue a few times; a refusal (4xx) is final
 * and recorded with the platform's error. A timed call (a mute) ends relative to when it is sent:
 * the runner resolves its end then, for every platform, and skips one whose time is already over.
 */
import { now } from '#shared/adapters/ports';
import { callPlatform } from '#shared/platforms/port';
import { isTransient, RetryLater } from '#shared/platforms/result';
import {
  countAttempt,
  getDelivery,
  leaveStallIndex,
  listStalledDeliveries,
  moveStallTime,
  planDelivery,
  postponeDelivery,
  recordCallOutcome,
  releaseCallClaim,
  settleDelivery,
  type CallRecord,
  type Delivery,
  type PlannedCall,
} from '#shared/store/platformCallsRepo';
import { EVERYTHING_DUE } from '#shared/store/keys';
import { getCommunity, type CommunityRecord } from '#shared/store/communitiesRepo';
import { getCommunityRules } from './communityRulesReads';
import { observes, type RulesMode } from './communityRules';
import { getPlatformRecord } from '#shared/store/platformRepo';
import { PLATFORMS } from '#shared/platforms/registry';
import type { DeliveryPlan } from '#shared/platforms/contract';
import { communityStatus } from './communityTypes';
import { PlatformUnavailable, sendPlatformMessages } from './platformMessages';

const NOT_SENT = 'before these calls were made: the rest were not sent.';
const COMMUNITY_DELETED = `The community was deleted ${NOT_SENT}`;

/**
 * Why a delivery planned for a monitored community must send nothing more now, or undefined when it
 * may go on: the community was deleted, is no longer monitored (suspended, expired, or waiting for a
 * new binding after its type changed), moved to another platform, left the place its calls act in
 * (which another community may hold now), or switched to observe mode.
 */
async function stopReason(
  community: CommunityRecord | undefined,
  delivery: Delivery,
): Promise<{ status: 'failed' | 'observe'; error: string | null } | undefined> {
  if (!community) return { status: 'failed', error: COMMUNITY_DELETED };
  const platform = delivery.calls[0]?.platform;
  if (platform && community.type !== platform)
    return { status: 'failed', error: `The community changed type to ${community.type} ${NOT_SENT}` };
  const status = communityStatus(community);
  if (status !== 'connected') {
    const why = status === 'pending_activation' ? 'is no longer bound on its platform' : `was ${status}`;
    return { status: 'failed', error: `The community ${why} ${NOT_SENT}` };
  }
  if (delivery.place !== undefined) {
    const bound = (await getPlatformRecord(community.id))[PLATFORMS[community.type].recordFields.bound];
    if (bound !== delivery.place)
      return { status: 'failed', error: `The community left ${delivery.place} ${NOT_SENT}` };
  }
  if (observes(await getCommunityRules(community.id, true))) return { status: 'observe', error: null };
  return undefined;
}

/** Delivery ids: a decision's own calls, and the reversal of an audit entry. */
export const decisionDeliveryId = (eventId: string) => `ev:${eventId}`;
export const undoDeliveryId = (auditId: string) => `undo:${auditId}`;

/** Transient failures (not rate limits) before the delivery is given up as failed: the queue's deliveries (pipeline.ts MAX_DELIVERIES). */
export const MAX_TRANSIENT_ATTEMPTS = 3;
/** Longer than a worker's run (2 minutes in AWS) and any retry_after delay we honour would leave it pending. */
const STALE_PENDING_MS = 20 * 60 * 1000;
/** When a delivery last touched at `fromMs` counts as stalled (its queue message lost). */
const stallTimeAfter = (fromMs: number) => new Date(fromMs + STALE_PENDING_MS).toISOString();

export type { DeliveryPlan };

/** Plans a delivery once (a re-delivered update finds it planned) and queues it. */
export async function scheduleDelivery(plan: DeliveryPlan): Promise<boolean> {
  if (!plan.calls.length) return false;
  const at = now().toISOString();
  const delivery: Delivery = {
    deliveryId: plan.deliveryId,
    communityId: plan.communityId,
    ...(plan.userId ? { userId: plan.userId } : {}),
    purpose: plan.purpose,
    ...(plan.auditId ? { auditId: plan.auditId } : {}),
    ...(plan.eventId ? { eventId: plan.eventId } : {}),
    ...(plan.place ? { place: plan.place } : {}),
    calls: plan.calls,
    outcomes: plan.calls.map(() => null),
    status: plan.observe ? 'observe' : 'pending',
    error: null,
    attempts: 0,
    createdAt: at,
    updatedAt: at,
  };
  const planned = await planDelivery(delivery, stallTimeAfter(Date.parse(at)));
  if (plan.observe || plan.queue === false) return planned;
  // A re-delivered update finds its plan: it is queued again only when it has sat pending for a while
  // (the first request died between planning and queueing), never while a worker may be running it.
  if (!planned) {
    const existing = await getDelivery(plan.communityId, plan.deliveryId);
    if (existing?.status !== 'pending' || Date.parse(existing.updatedAt) > now().getTime() - STALE_PENDING_MS)
      return false;
  }
  await sendPlatformMessages([
    { kind: 'moderation.deliver', community_id: plan.communityId, delivery_id: plan.deliveryId },
  ]);
  return planned;
}

/**
 * What the engine decided, planned under the community's mode: in observe mode recorded and never sent.
 * Every ingest path schedules its decisions (and their alerts) here; calls that follow no decision (a
 * reply to a command, lifting what was applied) are sent whatever the mode, through scheduleDelivery.
 */
export const scheduleDecision = (rules: { mode: RulesMode }, plan: Omit<DeliveryPlan, 'observe'>): Promise<boolean> =>
  scheduleDelivery({ ...plan, observe: observes(rules) });

/** A timed action that should already have ended (a delivery that late) is not applied at all. */
const timeIsOver = (timed: NonNullable<PlannedCall['timed']>, at: Date) =>
  Date.parse(timed.from) + timed.seconds * 1000 <= at.getTime();

const messageIdOf = (result: unknown): number | undefined => {
  const id = (result as { message_id?: unknown } | null)?.message_id;
  return typeof id === 'number' ? id : undefined;
};
/** A platform module that chose not to send a call says why in its result (`skipped`). */
const skippedOf = (result: unknown): string | undefined => {
  const why = (result as { skipped?: unknown } | null)?.skipped;
  return typeof why === 'string' ? why : undefined;
};
/** A delivery this much older than its try has waited (a lost worker, the queue): what it acts on may have changed. */
const WAITED_MS = 60_000;

export async function runDelivery(communityId: string, deliveryId: string): Promise<Delivery['status'] | undefined> {
  const delivery = await getDelivery(communityId, deliveryId);
  if (delivery?.status !== 'pending') return delivery?.status;
  // A delivery can wait long (a platform's rate limit, Crisp's daily quota): a community deleted,
  // suspended, expired, moved to another platform or switched to observe meanwhile acts on its
  // platform no more, whatever it decided before ("monitoring stops"). Checked before each try.
  if (delivery.userId) {
    const stop = await stopReason(await getCommunity(delivery.userId, communityId, true), delivery);
    if (stop) {
      await settleDelivery(communityId, deliveryId, stop.status, stop.error, now().toISOString());
      return stop.status;
    }
  }
  // Back before the platform's wait is over (a queue's delay is shorter): wait the rest, calling nothing.
  const waitMs = delivery.waitUntil ? Date.parse(delivery.waitUntil) - now().getTime() : 0;
  if (waitMs >= 1000) throw new RetryLater(Math.ceil(waitMs / 1000), 'the platform asked to wait until then');
  // Tried before, or planned a while ago: a platform module may look again at what a call acts on.
  const waited =
    delivery.waitUntil !== undefined ||
    delivery.attempts > 0 ||
    delivery.outcomes.some((o) => o !== null) ||
    now().getTime() - Date.parse(delivery.createdAt) > WAITED_MS;
  for (const [index, call] of delivery.calls.entries()) {
    const previous = delivery.outcomes[index];
    if (previous && !previous.sending) continue;
    const sendAt = now();
    // Claimed by a try that stopped before the answer came (a worker killed mid-call): it may well have
    // gone out, and a second send would repeat it.
    if (previous?.sending) {
      const record: CallRecord = {
        ok: true,
        at: sendAt.toISOString(),
        skipped: 'a worker stopped while sending it: it may have gone out, so it is not sent a second time',
      };
      await recordCallOutcome(communityId, deliveryId, index, record);
      delivery.outcomes[index] = record;
      continue;
    }
    if (call.timed && timeIsOver(call.timed, sendAt)) {
      const record: CallRecord = {
        ok: true,
        at: sendAt.toISOString(),
        skipped: `its ${call.timed.seconds} s were over before it could be applied`,
      };
      await recordCallOutcome(communityId, deliveryId, index, record);
      delivery.outcomes[index] = record;
      continue;
    }
    const endsAt = call.timed ? new Date(sendAt.getTime() + call.timed.seconds * 1000) : undefined;
    if (call.once)
      await recordCallOutcome(communityId, deliveryId, index, { ok: false, at: sendAt.toISOString(), sending: true });
    const outcome = await callPlatform(call, { communityId, waited, ...(endsAt ? { endsAt } : {}) });
    const at = now().toISOString();
    if (outcome === 'not_configured') {
      await settleDelivery(
        communityId,
        deliveryId,
        'not_configured',
        `${call.platform} is not configured on this deployment`,
        at,
      );
      return 'not_configured';
    }
    if (!outcome.ok && isTransient(outcome)) {
      // The platform answered that it did not do it: the claim is given back, a later try sends it. A call
      // that got no answer at all (status 0: a timeout, a cut connection) may have gone out; it stays claimed.
      if (call.once && outcome.status !== 0) await releaseCallClaim(communityId, deliveryId, index, at);
      if (outcome.retryAfterSeconds !== undefined) {
        // Waiting on purpose: not stalled before the wait is over.
        const waitUntil = Date.parse(at) + outcome.retryAfterSeconds * 1000;
        await postponeDelivery(communityId, deliveryId, new Date(waitUntil).toISOString(), stallTimeAfter(waitUntil));
        throw new RetryLater(outcome.retryAfterSeconds, outcome.error);
      }
      if ((await countAttempt(communityId, deliveryId, at)) >= MAX_TRANSIENT_ATTEMPTS) {
        await recordCallOutcome(communityId, deliveryId, index, { ok: false, at, error: outcome.error });
        await settleDelivery(communityId, deliveryId, 'failed', outcome.error, at);
        return 'failed';
      }
      throw new PlatformUnavailable(outcome.error);
    }
    const record: CallRecord = outcome.ok
      ? {
          ok: true,
          at,
          ...(messageIdOf(outcome.result) !== undefined ? { message_id: messageIdOf(outcome.result) } : {}),
          ...(skippedOf(outcome.result) !== undefined ? { skipped: skippedOf(outcome.result) } : {}),
        }
      : { ok: false, at, error: outcome.error };
    await recordCallOutcome(communityId, deliveryId, index, record);
    delivery.outcomes[index] = record;
  }
  const firstError = delivery.outcomes.find((o) => o && !o.ok)?.error ?? null;
  await settleDelivery(communityId, deliveryId, firstError ? 'failed' : 'delivered', firstError, now().toISOString());
  return firstError ? 'failed' : 'delivered';
}

/**
 * The scheduled sweep's part: a pending delivery untouched for STALE_PENDING_MS (past any wait a
 * platform asked for) lost its queue message (a stopped local process, a worker that kept crashing
 * until the dead-letter queue), so it is queued again; the calls already answered are not repeated.
 * `resume` (the local runtime's start, whose in-process queue died with the last process) queues
 * every pending delivery at once.
 */
export async function requeueStalledDeliveries(
  options: { resume?: boolean } = {},
): Promise<{ stalled: number; requeued: number }> {
  const at = now().getTime();
  const stalled = await listStalledDeliveries(options.resume ? EVERYTHING_DUE : new Date(at).toISOString());
  let requeued = 0;
  for (const seen of stalled) {
    const delivery = await getDelivery(seen.communityId, seen.deliveryId);
    if (!delivery) continue;
    if (delivery.status !== 'pending') {
      await leaveStallIndex(seen.communityId, seen.deliveryId);
      continue;
    }
    const lastTouched = Date.parse(delivery.updatedAt);
    if (!options.resume && lastTouched + STALE_PENDING_MS > at) {
      // Still moving (a call answered lately): look again once it has been quiet long enough.
      await moveStallTime(seen.communityId, seen.deliveryId, stallTimeAfter(lastTouched), seen.dueKey);
      continue;
    }
    // The claim moves it forward first, so overlapping sweeps queue it once.
    if (!(await moveStallTime(seen.communityId, seen.deliveryId, stallTimeAfter(at), seen.dueKey))) continue;
    await sendPlatformMessages([
      { kind: 'moderation.deliver', community_id: seen.communityId, delivery_id: seen.deliveryId },
    ]);
    requeued += 1;
  }
  return { stalled: stalled.length, requeued };
}
