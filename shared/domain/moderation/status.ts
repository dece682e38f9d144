/** ModerationStatus: connection, live counters and the newest audit entries of one community. */
import { now } from '#shared/adapters/ports';
import { NotFoundError, RateLimitedError } from '#shared/domain/errors';
import { config } from '#shared/config/config';
import { claimSyncPoll } from '#shared/store/syncPollsRepo';
import { getCommunity, newestCommunity, stampSynced, type CommunityRecord } from '#shared/store/communitiesRepo';
import { newestAuditEntries, readMetrics } from '#shared/store/moderationRepo';
import { requireCommunity, withActivationToken } from './communityReads';
import { communityStatus, isActivated } from './communityTypes';
import { PLATFORMS } from '#shared/platforms/registry';
import { deliveriesByIds } from '#shared/store/platformCallsRepo';
import { decisionDeliveryId, undoDeliveryId } from './platformCallRunner';
import { getPlatformRecord, type PlatformRecord } from '#shared/store/platformRepo';
import { platformConfigured } from '#shared/platforms/port';
import { loadTextModel } from '#shared/store/textModelRepo';
import { canUndo } from './undo';
import { PLATFORM_CORE } from './platformCore';
import { pollCommunityNow } from './polling';

/** Where the community is bound on its platform, whether the platform is configured, and what it does not do (its module's words). */
async function platformOf(community: CommunityRecord, record: PlatformRecord) {
  const platform = PLATFORMS[community.type];
  const configured = await platformConfigured(community.type);
  return {
    chat_id: record[platform.recordFields.bound] ?? null,
    alert_chat_id: (platform.recordFields.alert && record[platform.recordFields.alert]) ?? null,
    configured,
    automod_synced_at: record.automodSyncedAt ?? null,
    automod_error: record.automodError ?? null,
    unsupported: [...platform.unsupported],
  };
}

/**
 * Expired communities are disconnected for good; a connected one whose latest poll could not read its
 * platform (X refused the tokens, ...) is `failing`, with the reason, until a poll reads again.
 */
function connectionOf(c: CommunityRecord, record: PlatformRecord) {
  const state = c.billingState === 'expired' ? 'disconnected' : isActivated(c) ? 'connected' : 'pending_activation';
  const error = state === 'connected' ? (record.pollError ?? null) : null;
  return { connection_state: error === null ? state : 'failing', connection_error: error } as const;
}

const spamRate = (flagged: number, scanned: number) =>
  scanned === 0 ? 0 : Math.round((flagged / scanned) * 10_000) / 10_000;

async function statusOf(community: CommunityRecord, includeLogs: number, consistent: boolean) {
  const [metrics, audit, record, taught] = await Promise.all([
    readMetrics(community.id, consistent),
    newestAuditEntries(community.id, includeLogs, consistent),
    getPlatformRecord(community.id),
    loadTextModel(community.id),
  ]);
  const platform = await platformOf(community, record);
  const deliveries = await deliveriesByIds(
    community.id,
    audit.flatMap((e) => [decisionDeliveryId(e.event_id), undoDeliveryId(e.id)]),
  );
  const stateOf = (id: string) => {
    const d = deliveries.get(id);
    return d ? { status: d.status, error: d.error } : null;
  };
  const undoOf = (auditId: string) => {
    const d = deliveries.get(undoDeliveryId(auditId));
    return d ? { status: d.status, error: d.error, at: d.createdAt } : null;
  };
  const count = (name: string) => metrics.counts[name] ?? 0;
  const undoable = await Promise.all(
    audit.map((e) =>
      canUndo(
        community,
        e,
        record,
        deliveries.get(decisionDeliveryId(e.event_id)),
        deliveries.get(undoDeliveryId(e.id)),
      ),
    ),
  );
  return {
    community_id: community.id,
    moderation_id: community.moderationId,
    ...connectionOf(community, record),
    status: communityStatus(community),
    metrics: {
      messages_scanned: count('messages_scanned'),
      messages_flagged: count('messages_flagged'),
      actions: { delete: count('delete'), warn: count('warn'), mute: count('mute'), ban: count('ban') },
      members_joined: count('members_joined'),
      welcome_messages_sent: count('welcome_messages_sent'),
      spam_rate: spamRate(count('messages_flagged'), count('messages_scanned')),
      actions_undone: count('undone'),
      examples_taught: taught.model.examples[0] + taught.model.examples[1],
      last_event_at: metrics.lastEventAt,
    },
    audit_logs: audit.map((e, i) => ({
      id: e.id,
      at: e.at,
      event_id: e.event_id,
      user_id: e.user_id,
      username: e.username,
      action: e.action,
      rule: e.rule,
      reason: e.reason,
      score: e.score ?? null,
      signals: e.signals ?? [{ id: e.rule, label: e.reason }],
      message_excerpt: e.message_excerpt,
      alert_message: e.alert_message,
      delivery: stateOf(decisionDeliveryId(e.event_id)),
      undo: undoOf(e.id),
      undoable: undoable[i],
    })),
    platform,
    last_synced_at: community.lastSyncedAt,
  };
}

/** The named community, or the caller's newest when none is named (404 when the caller has none). */
export async function moderationStatus(userId: string, query: { community_id?: string; include_logs: number }) {
  const found = query.community_id ? await requireCommunity(userId, query.community_id) : await newestCommunity(userId);
  if (!found) throw new NotFoundError('Community');
  const community = await withActivationToken(found);
  return statusOf(community, query.include_logs, false);
}

/**
 * A platform poll for POST /sync, at most one per community per interval: the platforms' budgets are
 * the deployment's (Reddit's per client id, X's per read), so one caller's loop must not spend them.
 */
async function claimPlatformPoll(communityId: string): Promise<void> {
  const interval = config().moderationSyncIntervalSeconds;
  if (interval === 0) return;
  const at = now();
  const claim = await claimSyncPoll(communityId, at, interval);
  if (claim.claimed) return;
  // A concurrent sync may read the clock before this one and claim after it: its claim then looks a
  // moment ahead, and never holds longer than the interval.
  const remaining = Math.ceil((Date.parse(claim.polledAt) + interval * 1000 - at.getTime()) / 1000);
  const wait = Math.min(interval, Math.max(1, remaining));
  throw new RateLimitedError(
    `This community's platform was polled less than ${interval} s ago; sync again in ${wait} s (the schedule also polls every minute).`,
    wait,
  );
}

/**
 * Strongly consistent reads (everything written before the call is in) and a new last_synced_at, unless
 * the platform's poll just failed: the status then says why, and last_synced_at still names the last
 * sync that read it.
 */
export async function syncModeration(userId: string, communityId: string, includeLogs = 25) {
  const community = await requireCommunity(userId, communityId);
  // What the platform did or holds since the last sync is read in first (Discord's AutoMod executions, a poll).
  const sync = PLATFORMS[community.type].sync;
  if (sync) {
    await claimPlatformPoll(community.id);
    await (sync === 'poll' ? pollCommunityNow(community) : sync(community, PLATFORM_CORE));
    if ((await getPlatformRecord(community.id)).pollError) {
      const unsynced = await getCommunity(userId, communityId, true);
      if (!unsynced) throw new NotFoundError('Community');
      return statusOf(unsynced, includeLogs, true);
    }
  }
  const synced = await stampSynced(userId, communityId, now().toISOString());
  if (!synced) throw new NotFoundError('Community');
  return statusOf(synced, includeLogs, true);
}
