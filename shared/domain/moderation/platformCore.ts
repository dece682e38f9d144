/**
 * The moderation core as the platforms see it: the one `ModerationCore` the core hands each platform
 * hook (polls, syncs, rules and monitoring changes, its own queued work), so that the platform folders
 * reach the engine, the delivery runner, activation and the queue without importing them.
 */
import type { ModerationCore } from '#shared/platforms/contract';
import { markCommunityActivated } from './activation';
import { bindWithToken, communityOfToken, tokenMayDo } from './activationToken';
import { moderateEvents } from './moderation';
import { callPlatform } from '#shared/platforms/port';
import { DELIVERY_CORE } from './deliveryCore';
import { bindModeratedPlace, releaseModeratedPlace } from './binding';
import { withActivationToken } from './communityReads';
import { sendPlatformMessages } from './platformMessages';
import { DEFAULT_RULES } from './rules';
import { leadingPhishingDomains } from './phishingLists';
import { alertTemplateOf } from './communityTypes';
import { renderTemplate } from './templates';

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
  alertText: (community, action, username) => renderTemplate(alertTemplateOf(community), { action, username }),
  queueWork: (message) => sendPlatformMessages([message]),
  builtInRules: DEFAULT_RULES.rules,
  leadingPhishingDomains,
};
