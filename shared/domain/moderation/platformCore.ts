/**
 * The moderation core as the platforms see it: the one `ModerationCore` the core hands each platform
 * hook (polls, syncs, rules and monitoring changes), so that the platform folders reach the engine, the
 * delivery runner and activation without importing them.
 */
import type { ModerationCore } from '#shared/platforms/contract';
import { markCommunityActivated } from './activation';
import { bindWithToken, communityOfToken, tokenMayDo } from './activationToken';
import { syncAutomodExecutions } from './discordAudit';
import { requestAutomodSync } from './discordAutomod';
import { moderateEvents } from './moderation';
import { callPlatform } from '#shared/platforms/port';
import { DELIVERY_CORE } from './deliveryCore';
import { bindModeratedPlace, releaseModeratedPlace } from './binding';
import { withActivationToken } from './communityReads';

export const PLATFORM_CORE: ModerationCore = {
  ...DELIVERY_CORE,
  moderateEvents,
  callPlatform,
  communityOfToken,
  tokenMayDo,
  bindWithToken,
  markCommunityActivated,
  withActivationToken,
  bindModeratedPlace,
  releaseModeratedPlace,
  requestAutomodSync,
  syncAutomodExecutions,
};
