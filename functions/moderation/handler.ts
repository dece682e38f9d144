import { useAwsPorts } from '../../shared/adapters/aws';
import { useEventBridgeEvents } from '../../shared/adapters/eventBridgeEvents';
import { useSqsQueue, useWebhookQueue } from '../../shared/adapters/sqsQueue';
import { createApiHandler, route } from '../../shared/http/api';
import { noContent } from '../../shared/http/response';
import { moderationEndpoints as E } from '../../shared/schemas/moderation';
import { platformEndpoints as P } from '../../shared/schemas/moderationPlatforms';
import { changeRules, readRules } from '../../shared/domain/moderation/rulesSettings';
import { handleTelegramOperatorUpdate } from '../../shared/domain/moderation/telegramBot';
import { undoAction } from '../../shared/domain/moderation/undo';
import { handleDiscordInteraction } from '../../shared/domain/moderation/discordInteractions';
import type { Update } from '@grammyjs/types';
import { changeAutoRenew, changeCommunity, listCommunityViews, provisionCommunity, readCommunity, removeCommunity } from '../../shared/domain/moderation/communities';
import { moderateOwnCommunityEvents, moderateTelegramUpdate } from '../../shared/domain/moderation/moderation';
import { moderationStatus, syncModeration } from '../../shared/domain/moderation/status';

useAwsPorts();
useWebhookQueue();
useEventBridgeEvents();
useSqsQueue();

export const handler = createApiHandler([
  route(E.createCommunity, async ({ user, body }) => provisionCommunity(user.id, body)),
  route(E.listCommunities, async ({ user, query }) => listCommunityViews(user.id, query)),
  route(E.getCommunity, async ({ user, params }) => readCommunity(user.id, params.id)),
  route(E.updateCommunity, async ({ user, params, body }) => changeCommunity(user.id, params.id, body)),
  route(E.setAutoRenew, async ({ user, params, body }) => changeAutoRenew(user.id, params.id, body.auto_renew)),
  route(E.deleteCommunity, async ({ user, params }) => {
    await removeCommunity(user.id, params.id);
    return noContent();
  }),
  route(E.postEvents, async ({ user, params, body }) => moderateOwnCommunityEvents(user.id, params.id, body.events)),
  route(E.telegramWebhook, async ({ params, headers, body }) => moderateTelegramUpdate(params.moderation_id, headers['x-telegram-bot-api-secret-token'], body)),
  route(E.getStatus, async ({ user, query }) => moderationStatus(user.id, query)),
  route(P.getRules, async ({ user, params }) => readRules(user.id, params.id)),
  route(P.putRules, async ({ user, params, body }) => changeRules(user.id, params.id, body)),
  route(P.telegramOperatorWebhook, async ({ headers, body }) => handleTelegramOperatorUpdate(headers['x-telegram-bot-api-secret-token'], body as unknown as Update)),
  route(P.undo, async ({ user, params }) => undoAction(user.id, params.id, params.audit_id)),
  route(P.discordInteractions, async ({ headers, rawBody }) => handleDiscordInteraction(headers, rawBody)),
  route(E.sync, async ({ user, body }) => syncModeration(user.id, body.community_id)),
]);
