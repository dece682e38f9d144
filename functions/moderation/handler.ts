import { sqsPipelineQueue, sqsWebhookQueue } from '#shared/adapters/sqsQueue';
import { PLATFORM_CORE } from '#shared/domain/moderation/platformCore';
import { withPorts } from '#shared/adapters/aws';
import { awsSecrets } from '#shared/adapters/secrets';
import { tokenKeyEncryption } from '#shared/adapters/kmsEncryption';
import { createApiHandler } from '#shared/http/api';
import { HttpResponse, noContent } from '#shared/http/response';
import { moderationEndpoints as E } from '#shared/schemas/moderation';
import { platformEndpoints as P } from '#shared/schemas/moderationPlatforms';
import { xEndpoints as X } from '#shared/schemas/moderationX';
import { callbackHtml, completeXAuthorization } from '#shared/platforms/x/oauth';
import { changeRules, readRules } from '#shared/domain/moderation/rulesSettings';
import { handleTelegramOperatorUpdate } from '#shared/platforms/telegram/bot';
import { undoAction } from '#shared/domain/moderation/undo';
import { checkMessages } from '#shared/domain/moderation/checkMessages';
import { forgetExamples, teachExamples } from '#shared/domain/moderation/teaching';
import { handleDiscordInteraction } from '#shared/platforms/discord/interactions';
import { handleCrispHook } from '#shared/platforms/crisp/hooks';
import type { Update } from '@grammyjs/types';
import {
  changeAutoRenew,
  changeCommunity,
  issueFreshActivationToken,
  listCommunityViews,
  provisionCommunity,
  readCommunity,
  removeCommunity,
} from '#shared/domain/moderation/communities';
import { moderateOwnCommunityEvents } from '#shared/domain/moderation/moderation';
import { moderateTelegramUpdate } from '#shared/platforms/telegram/communityWebhook';
import { moderationStatus, syncModeration } from '#shared/domain/moderation/status';

// X communities' OAuth tokens are sealed with the token KMS key (encryption).
export const handler = withPorts(
  'moderation',
  {
    queue: sqsPipelineQueue,
    webhookQueue: sqsWebhookQueue,
    secrets: awsSecrets,
    encryption: tokenKeyEncryption,
  },
  createApiHandler(
    { ...E, ...P, ...X },
    {
      // The base URL is the service's own (configured, or API Gateway's record), never a request header: X's authorize_url names it.
      createCommunity: async ({ user, body, baseUrl }) => provisionCommunity(user.id, body, baseUrl),
      listCommunities: async ({ user, query, baseUrl }) => listCommunityViews(user.id, query, baseUrl),
      getCommunity: async ({ user, params, baseUrl }) => readCommunity(user.id, params.id, baseUrl),
      updateCommunity: async ({ user, params, body, baseUrl }) => changeCommunity(user.id, params.id, body, baseUrl),
      setAutoRenew: async ({ user, params, body, baseUrl }) =>
        changeAutoRenew(user.id, params.id, body.auto_renew, baseUrl),
      issueActivationToken: async ({ user, params, baseUrl }) => issueFreshActivationToken(user.id, params.id, baseUrl),
      deleteCommunity: async ({ user, params }) => {
        await removeCommunity(user.id, params.id);
        return noContent();
      },
      postEvents: async ({ user, params, body }) => moderateOwnCommunityEvents(user.id, params.id, body.events),
      telegramWebhook: async ({ params, headers, body }) =>
        moderateTelegramUpdate(params.moderation_id, headers['x-telegram-bot-api-secret-token'], body, PLATFORM_CORE),
      getStatus: async ({ user, query }) => moderationStatus(user.id, query),
      getRules: async ({ user, params }) => readRules(user.id, params.id),
      putRules: async ({ user, params, body }) => changeRules(user.id, params.id, body),
      // The schema checks the fields the bot reads and lets Telegram's others through (loose objects); grammy's
      // Update types each of those others too, so the checked shape is not one of its members.
      telegramOperatorWebhook: async ({ body }) =>
        handleTelegramOperatorUpdate(body as unknown as Update, PLATFORM_CORE),
      undo: async ({ user, params }) => undoAction(user.id, params.id, params.audit_id),
      checkMessages: async ({ user, params, body }) => checkMessages(user.id, params.id, body.messages),
      teachExamples: async ({ user, params, body }) => teachExamples(user.id, params.id, body.examples),
      forgetExamples: async ({ user, params }) => {
        await forgetExamples(user.id, params.id);
        return noContent();
      },
      // Discord's own response types (discord-api-types) are closed interfaces; the spec documents them as an
      // object with a type, which the spread's plain object type fits.
      discordInteractions: async ({ headers, rawBody }) => ({
        ...(await handleDiscordInteraction(headers, rawBody, PLATFORM_CORE)),
      }),
      crispHook: async ({ body }) => handleCrispHook(body, PLATFORM_CORE),
      sync: async ({ user, body }) => syncModeration(user.id, body.community_id),
      xOAuthCallback: async ({ query }) => {
        const page = await completeXAuthorization(query, PLATFORM_CORE);
        return new HttpResponse(
          page.status,
          callbackHtml(page),
          { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
          'text/html; charset=utf-8',
        );
      },
    },
  ),
);
