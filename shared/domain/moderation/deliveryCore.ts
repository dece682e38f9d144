/**
 * The delivery planning the platforms are handed (DeliveryCore): all a scheduled sweep of a platform
 * needs (the captchas function), without the engine, activation or queued work of the whole core.
 */
import type { DeliveryCore } from '#shared/platforms/contract';
import { observes } from './communityRules';
import { getCommunityRules } from './communityRulesReads';
import { communityStatus, resumedMs } from './communityTypes';
import { decisionDeliveryId, scheduleDecision, scheduleDelivery } from './platformCallRunner';

export const DELIVERY_CORE: DeliveryCore = {
  scheduleDelivery,
  scheduleDecision,
  decisionDeliveryId,
  rulesOf: getCommunityRules,
  observes,
  communityStatus,
  resumedMs,
};
