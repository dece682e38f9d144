/**
 * The moderation core as the platforms see it: the one `ModerationCore` the core hands each platform
 * hook (polls, syncs, rules and monitoring changes), so that the platform folders reach the engine, the
 * delivery runner and activation without importing them.
 */
import type { ModerationCore } from '#shared/platforms/contract';
import { markCommunityActivated } from './activation';
import { bindWithToken, communityOfToken, tokenMayDo } from './activationToken';
import { observes } from './communityRules';
import { communityStatus, resumedMs } from './communityTypes';
import { syncAutomodExecutions } from './discordAudit';
import { requestAutomodSync } from './discordAutomod';
import { moderateEvents } from './moderation';
import { decisionDeliveryId, scheduleDecision } from './platformCallRunner';

export const PLATFORM_CORE: ModerationCore = {
  moderateEvents,
  scheduleDecision,
  decisionDeliveryId,
  observes,
  communityStatus,
  resumedMs,
  communityOfToken,
  tokenMayDo,
  bindWithToken,
  markCommunityActivated,
  requestAutomodSync,
  syncAutomodExecutions,
};
