/**
 * POST /sync for a Discord community: AutoMod's executions, read from the guild audit log since the
 * last sync, become audit entries and counters like the engine's own decisions. Each audit-log entry
 * is written with its seen marker in one transaction, so overlapping syncs record it once.
 */
import type { APIAuditLogEntry, RESTGetAPIAuditLogResult } from 'discord-api-types/v10';
import { uuidv7 } from '#shared/ids';
import { addToMetrics, metricShardOf, putAuditEntry, putSeenEvent } from '#shared/store/moderationRepo';
import { advanceAuditCursor, getPlatformRecord, updatePlatformRecord } from '#shared/store/platformRepo';
import { TransactionConditionError, writeTogether } from '#shared/store/transactions';
import type { CommunityRecord } from '#shared/store/communitiesRepo';
import type { PenaltyAction } from '#shared/domain/moderation/actions';
import type { ModerationCore } from '#shared/platforms/contract';
import { AUTOMOD_NAME_PREFIX } from './automod';

/** The audit-log action types of AutoMod executions, and the action each amounts to. */
const AUTOMOD_EXECUTIONS: Record<number, PenaltyAction> = {
  143: 'delete', // AUTO_MODERATION_BLOCK_MESSAGE
  145: 'mute', // AUTO_MODERATION_USER_COMMUNICATION_DISABLED
};
const DISCORD_EPOCH_MS = 1_420_070_400_000;
const snowflakeTime = (id: string) => new Date(Number(BigInt(id) >> 22n) + DISCORD_EPOCH_MS);
const newer = (a: string, b: string) => (a.length !== b.length ? a.length > b.length : a > b);

export interface AuditSyncReport {
  read: number;
  recorded: number;
  error: string | null;
}

/**
 * Pages of 100 read per action type and sync once a cursor exists, newest first, back to the cursor:
 * a sync cannot run without end on a guild flooded with executions. When a type has more unread than
 * that, the cursor stays where it was (what was read is recorded, once), so nothing older is skipped.
 */
const MAX_PAGES_PER_TYPE = 10;

export async function syncAutomodExecutions(
  community: CommunityRecord,
  core: ModerationCore,
): Promise<AuditSyncReport> {
  const platform = await getPlatformRecord(community.id);
  const guild = platform.discordGuildId;
  if (!guild) return { read: 0, recorded: 0, error: null };
  const since = platform.discordAuditCursor;
  let read = 0;
  let recorded = 0;
  let newest = since;
  let caughtUp = true;
  for (const [type, action] of Object.entries(AUTOMOD_EXECUTIONS)) {
    // Discord lists the audit log newest first; `before` pages back. Without a cursor (the first sync)
    // only the latest page counts: older executions predate the community's activation.
    let before: string | undefined;
    for (let page = 1; ; page++) {
      const query = new URLSearchParams({ action_type: type, limit: '100', ...(before ? { before } : {}) });
      const outcome = await core.callPlatform({
        platform: 'discord',
        method: 'GET',
        route: `/guilds/${guild}/audit-logs?${query}`,
      });
      if (outcome === 'not_configured')
        return { read, recorded, error: 'discord is not configured on this deployment (not_configured)' };
      if (!outcome.ok) {
        await updatePlatformRecord(community.id, { automodError: outcome.error });
        return { read, recorded, error: outcome.error };
      }
      const entries = (outcome.result as RESTGetAPIAuditLogResult).audit_log_entries;
      const unread = since ? entries.filter((e) => newer(e.id, since)) : entries;
      for (const entry of unread) {
        read += 1;
        if (await recordExecution(community, entry, action, core)) recorded += 1;
        if (!newest || newer(entry.id, newest)) newest = entry.id;
      }
      if (!since || unread.length < entries.length || entries.length < 100) break;
      if (page >= MAX_PAGES_PER_TYPE) {
        caughtUp = false;
        break;
      }
      before = entries.reduce((oldest, e) => (newer(oldest, e.id) ? e.id : oldest), entries[0].id);
    }
  }
  if (caughtUp && newest && newest !== since) await advanceAuditCursor(community.id, newest);
  return { read, recorded, error: null };
}

async function recordExecution(
  community: CommunityRecord,
  entry: APIAuditLogEntry,
  action: PenaltyAction,
  core: ModerationCore,
): Promise<boolean> {
  const at = snowflakeTime(entry.id);
  const atIso = at.toISOString();
  const userId = entry.target_id ?? entry.user_id ?? 'unknown';
  const ruleName = entry.options?.auto_moderation_rule_name ?? 'AutoMod rule';
  const rule = ruleName.startsWith(AUTOMOD_NAME_PREFIX)
    ? ruleName.slice(AUTOMOD_NAME_PREFIX.length).toLowerCase().replace(/\s+/g, '_')
    : 'discord_automod';
  const reason = `Discord AutoMod: ${ruleName}`;
  const eventId = `dc-audit-${entry.id}`;
  const alert = core.alertText(community, action, userId);
  try {
    await writeTogether({
      seenEvent: putSeenEvent(community.id, { event_id: eventId, action, rule, reason, alert }, atIso),
      // The audit log does not keep the message text; the excerpt stays empty.
      auditEntry: putAuditEntry(
        community.id,
        {
          id: uuidv7(at.getTime()),
          at: atIso,
          event_id: eventId,
          user_id: userId,
          username: userId,
          action,
          rule,
          reason,
          score: null,
          signals: [{ id: rule, label: reason }],
          message_excerpt: '',
          alert_message: alert,
        },
        0,
      ),
      metrics: addToMetrics(community.id, metricShardOf(userId), { messages_flagged: 1, [action]: 1 }, atIso),
    });
    return true;
  } catch (err) {
    // The entry was recorded before (its seen-event marker exists).
    if (err instanceof TransactionConditionError) return false;
    throw err;
  }
}
