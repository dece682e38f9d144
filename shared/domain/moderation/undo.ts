/**
 * Undo: lifts what the platform's module can lift (a mute or a ban; on some platforms a
 * removal too) on the platform and records the reversal as a delivery of
 * its own (`undo:{audit_id}`), so an undo happens once and its outcome shows beside the audit entry.
 * The calls run at once, so the answer carries the platform's verdict; a rate limit leaves it pending
 * and queued for after the wait.
 */
import { now } from '#shared/adapters/ports';
import { NotFoundError, UnprocessableError } from '#shared/domain/errors';
import { getCommunityRules } from './communityRulesReads';
import { getDelivery } from '#shared/store/platformCallsRepo';
import { countUndone, findAuditEntry, type AuditEntry } from '#shared/store/moderationRepo';
import { boundCommunity } from '#shared/store/bindingsRepo';
import { getPlatformRecord, type PlatformRecord } from '#shared/store/platformRepo';
import type { Delivery, PlannedCall } from '#shared/store/platformCallsRepo';
import type { CommunityRecord } from '#shared/store/communitiesRepo';
import type { UndoTarget } from '#shared/platforms/contract';
import type { CommunityType } from './communityTypes';
import { requireCommunity } from './communityReads';
import { decisionDeliveryId, runDelivery, scheduleDelivery, undoDeliveryId } from './platformCallRunner';
import { observes } from './communityRules';
import { PLATFORMS } from '#shared/platforms/registry';
import { PlatformUnavailable, sendPlatformMessages } from './platformMessages';
import { RetryLater } from '#shared/platforms/result';
import { teachCommunity } from './teaching';
import { withdrawSpammer } from '#shared/store/sharedSpamRepo';

/**
 * The calls that lift an audit entry's action, or the refusal (422) saying why it cannot be lifted:
 * one set of rules for the undo itself and for the status's `undoable`, so Undo is offered only
 * where it can succeed.
 */
async function liftCalls(
  community: CommunityRecord,
  entry: AuditEntry,
  record: PlatformRecord,
  decision: Delivery | undefined,
): Promise<{ platform: CommunityType; calls: PlannedCall[] }> {
  const action = entry.action;
  // Lifted where it was applied: a community whose type changed since still takes back what it did there.
  const platform = decision?.calls[0]?.platform ?? community.type;
  const module = PLATFORMS[platform];
  const undoes: Record<string, ((target: UndoTarget) => PlannedCall[] | undefined) | null> = module.undo;
  const lift = Object.hasOwn(undoes, action) ? undoes[action] : null;
  if (!lift) throw new UnprocessableError('invalid_state', `A ${action} cannot be undone on ${platform}.`);
  // Its own calls still to go out (waiting on a rate limit) would apply the action again after the undo.
  if (decision?.status === 'pending')
    throw new UnprocessableError(
      'invalid_state',
      'This action is still being applied on the platform: undo it once its delivery is no longer pending.',
    );
  const bound = platform === community.type ? record[module.recordFields.bound] : undefined;
  const actedIn = decision && module.actedIn ? module.actedIn(decision) : undefined;
  if (actedIn !== undefined && actedIn !== bound) await refuseInAnotherCommunitysPlace(platform, actedIn, community.id);
  const place = actedIn ?? bound;
  const calls = lift({
    communityId: community.id,
    record,
    userId: entry.user_id,
    eventId: entry.event_id,
    decision,
    place,
  });
  if (!calls?.length)
    throw new UnprocessableError(
      'invalid_state',
      `This community is not bound on ${platform}: there is nothing to undo the action in.`,
    );
  return { platform, calls };
}

/**
 * Whether an undo of the entry would be accepted now (status's `undoable`): not undone yet, and
 * liftCalls finds what to lift. Its refusals are the undo's 422 answers; anything else is a fault.
 */
export async function canUndo(
  community: CommunityRecord,
  entry: AuditEntry,
  record: PlatformRecord,
  decision: Delivery | undefined,
  undo: Delivery | undefined,
): Promise<boolean> {
  if (undo) return false;
  try {
    await liftCalls(community, entry, record, decision);
    return true;
  } catch (err) {
    if (err instanceof UnprocessableError) return false;
    throw err;
  }
}

export async function undoAction(userId: string, communityId: string, auditId: string) {
  const community = await requireCommunity(userId, communityId);
  const entry = await findAuditEntry(communityId, auditId);
  if (!entry) throw new NotFoundError('Audit entry');
  const action = entry.action;
  const [record, decision] = await Promise.all([
    getPlatformRecord(communityId),
    getDelivery(communityId, decisionDeliveryId(entry.event_id)),
  ]);
  const { platform, calls } = await liftCalls(community, entry, record, decision);
  const deliveryId = undoDeliveryId(auditId);
  // What was applied is taken back whatever the mode is now (a community that switched to observe since
  // must still be able to lift a wrong ban); an action that was only observed applied nothing to take back.
  const observe = decision ? decision.status === 'observe' : observes(await getCommunityRules(communityId));
  const planned = await scheduleDeliveryNow(communityId, deliveryId, entry.event_id, calls, observe);
  if (!planned) throw new UnprocessableError('invalid_state', 'This action was already undone.');
  // Counted once, as the undo is planned once (a crash right here leaves it uncounted, never twice).
  await countUndone(communityId, entry.user_id);
  let status = observe ? 'observe' : 'pending';
  if (!observe) {
    try {
      status = (await runDelivery(communityId, deliveryId)) ?? 'pending';
    } catch (err) {
      // The platform asked to wait, or failed for now: the queue makes the undo again, and it answers pending.
      if (!(err instanceof RetryLater) && !(err instanceof PlatformUnavailable)) throw err;
      await sendPlatformMessages(
        [{ kind: 'moderation.deliver', community_id: communityId, delivery_id: deliveryId }],
        err instanceof RetryLater ? err.seconds : PlatformUnavailable.retrySeconds,
      );
    }
  }
  // The message was not spam in this community's eyes: its model learns that (the excerpt is what is kept of it).
  if (entry.message_excerpt) await teachCommunity(community, [{ text: entry.message_excerpt, label: 'ham' }]);
  // Nor was its sender a spammer: the owner no longer confirms it to other owners.
  if (action === 'ban') await withdrawSpammer(platform, entry.user_id, community.userId);
  const delivery = await getDelivery(communityId, deliveryId);
  return {
    audit_id: auditId,
    action: action as 'delete' | 'mute' | 'ban',
    delivery: (delivery?.status ?? status) as 'pending',
    error: delivery?.error ?? null,
    undone_at: delivery?.createdAt ?? now().toISOString(),
  };
}

/**
 * An action taken in a place the community has left since (it moved, or changed type) is lifted there
 * only while no other community holds that place: the lift is this community's to make, and in another
 * community's place it could free someone from what that community gave them.
 */
async function refuseInAnotherCommunitysPlace(platform: CommunityType, place: string, communityId: string) {
  const holder = await boundCommunity(platform, place, true);
  if (holder && holder.communityId !== communityId)
    throw new UnprocessableError(
      'invalid_state',
      `This action was taken in ${place} on ${platform}, which another community moderates now: lift it on ${platform} itself.`,
    );
}

/** Planned without queueing: the request runs it itself. */
async function scheduleDeliveryNow(
  communityId: string,
  deliveryId: string,
  eventId: string,
  calls: Parameters<typeof scheduleDelivery>[0]['calls'],
  observe: boolean,
) {
  return scheduleDelivery({ communityId, deliveryId, purpose: 'undo', eventId, calls, observe, queue: false });
}
