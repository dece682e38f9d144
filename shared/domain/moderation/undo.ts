/**
 * Undo (contract 10): lifts a mute or a ban on the platform and records the reversal as a delivery of
 * its own (`undo:{audit_id}`), so an undo happens once and its outcome shows beside the audit entry.
 * The calls run at once, so the answer carries the platform's verdict; a rate limit leaves it pending
 * and queued for after the wait.
 */
import { now } from '#shared/adapters/ports';
import { NotFoundError, UnprocessableError } from '#shared/domain/errors';
import { getCommunityRules } from '#shared/store/communityRulesRepo';
import { getDelivery } from '#shared/store/deliveriesRepo';
import { findAuditEntry } from '#shared/store/moderationRepo';
import { getPlatformRecord } from '#shared/store/platformRepo';
import type { PenaltyAction } from './actions';
import { requireCommunity } from './communities';
import { runDelivery, scheduleDelivery, undoDeliveryId } from './delivery';
import { DISCORD_UNDO_CALLS, TELEGRAM_UNDO_CALLS } from './platformActions';
import { RetryLater, sendPlatformMessages } from './platformMessages';
import { REDDIT_UNDO_CALLS } from './platforms/reddit/calls';
import { getPolledCommunity } from '#shared/store/pollingRepo';

export async function undoAction(userId: string, communityId: string, auditId: string) {
  const community = await requireCommunity(userId, communityId);
  const entry = await findAuditEntry(communityId, auditId);
  if (!entry) throw new NotFoundError('Audit entry');
  const action = entry.action as PenaltyAction;
  // On Reddit a removal is undone too (the item is approved again).
  const undoable = community.type === 'reddit' ? REDDIT_UNDO_CALLS[action] !== undefined : action === 'mute' || action === 'ban';
  if (!undoable) throw new UnprocessableError('invalid_state', `A ${action} cannot be undone; only mutes and bans can${community.type === 'reddit' ? ', and removals' : ''}.`);
  const platform = await getPlatformRecord(communityId);
  const subreddit = community.type === 'reddit' ? (await getPolledCommunity('reddit', communityId))?.externalId : undefined;
  const calls =
    subreddit
      ? REDDIT_UNDO_CALLS[action]!(subreddit, communityId, entry.user_id, entry.event_id)
      : community.type === 'telegram' && platform.telegramChatId
      ? TELEGRAM_UNDO_CALLS[action]!(platform.telegramChatId, entry.user_id)
      : community.type === 'discord' && platform.discordGuildId
        ? DISCORD_UNDO_CALLS[action]!(platform.discordGuildId, entry.user_id)
        : undefined;
  if (!calls) throw new UnprocessableError('invalid_state', 'This community has no bound Telegram group or Discord guild to undo the action in.');
  const deliveryId = undoDeliveryId(auditId);
  const observe = (await getCommunityRules(communityId)).mode === 'observe';
  const planned = await scheduleDeliveryNow(communityId, deliveryId, entry.event_id, calls, observe);
  if (!planned) throw new UnprocessableError('invalid_state', 'This action was already undone.');
  let status = observe ? 'observe' : 'pending';
  if (!observe) {
    try {
      status = (await runDelivery(communityId, deliveryId)) ?? 'pending';
    } catch (err) {
      if (!(err instanceof RetryLater)) throw err;
      await sendPlatformMessages([{ kind: 'moderation.deliver', community_id: communityId, delivery_id: deliveryId }], err.seconds);
    }
  }
  const delivery = await getDelivery(communityId, deliveryId);
  return { audit_id: auditId, action: action as 'delete' | 'mute' | 'ban', delivery: (delivery?.status ?? status) as 'pending', error: delivery?.error ?? null, undone_at: delivery?.createdAt ?? now().toISOString() };
}

/** Planned without queueing: the request runs it itself. */
async function scheduleDeliveryNow(communityId: string, deliveryId: string, eventId: string, calls: Parameters<typeof scheduleDelivery>[0]['calls'], observe: boolean) {
  return scheduleDelivery({ communityId, deliveryId, purpose: 'undo', eventId, calls, observe, queue: false });
}
