import { useAwsPorts } from '#shared/adapters/aws';
import { useEventBridgeEvents } from '#shared/adapters/eventBridgeEvents';
import { useSqsQueue, useWebhookQueue } from '#shared/adapters/sqsQueue';
import { createApiHandler } from '#shared/http/api';
import { noContent } from '#shared/http/response';
import { moderationEndpoints as E } from '#shared/schemas/moderation';
import { platformEndpoints as P } from '#shared/schemas/moderationPlatforms';
import { changeRules, readRules } from '#shared/domain/moderation/rulesSettings';
import { handleTelegramOperatorUpdate } from '#shared/domain/moderation/telegramBot';
import { undoAction } from '#shared/domain/moderation/undo';
import { handleDiscordInteraction } from '#shared/domain/moderation/discordInteractions';
import { handleCrispHook } from '#shared/domain/moderation/crisp/crispHooks';
import type { Update } from '@grammyjs/types';
import { changeAutoRenew, changeCommunity, listCommunityViews, provisionCommunity, readCommunity, removeCommunity } from '#shared/domain/moderation/communities';
import { moderateOwnCommunityEvents, moderateTelegramUpdate } from '#shared/domain/moderation/moderation';
import { moderationStatus, syncModeration } from '#shared/domain/moderation/status';

useAwsPorts();
useWebhookQueue();
useEventBridgeEvents();
useSqsQueue();

export const handler = createApiHandler({ ...E, ...P }, {
  createCommunity: async ({ user, body }) => provisionCommunity(user.id, body),
  listCommunities: async ({ user, query }) => listCommunityViews(user.id, query),
  getCommunity: async ({ user, params }) => readCommunity(user.id, params.id),
  updateCommunity: async ({ user, params, body }) => changeCommunity(user.id, params.id, body),
  setAutoRenew: async ({ user, params, body }) => changeAutoRenew(user.id, params.id, body.auto_renew),
  deleteCommunity: async ({ user, params }) => {
    await removeCommunity(user.id, params.id);
    return noContent();
  },
  postEvents: async ({ user, params, body }) => moderateOwnCommunityEvents(user.id, params.id, body.events),
  telegramWebhook: async ({ params, headers, body }) => moderateTelegramUpdate(params.moderation_id, headers['x-telegram-bot-api-secret-token'], body),
  getStatus: async ({ user, query }) => moderationStatus(user.id, query),
  getRules: async ({ user, params }) => readRules(user.id, params.id),
  putRules: async ({ user, params, body }) => changeRules(user.id, params.id, body),
  telegramOperatorWebhook: async ({ body }) => handleTelegramOperatorUpdate(body as unknown as Update),
  undo: async ({ user, params }) => undoAction(user.id, params.id, params.audit_id),
  // Discord's own response types (discord-api-types) are closed interfaces; the spec documents them as an object with a type.
  discordInteractions: async ({ headers, rawBody }) => (await handleDiscordInteraction(headers, rawBody)) as unknown as { type: number },
  crispHook: async ({ body }) => handleCrispHook(body),
  sync: async ({ user, body }) => syncModeration(user.id, body.community_id),
});
