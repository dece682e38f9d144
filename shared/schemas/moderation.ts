import * as z from 'zod';
import { defineEndpoint } from '#shared/http/endpoint';
import { COMMUNITY_TYPES } from '#shared/domain/moderation/communityTypes';
import { noContentSpec } from './noContent';
import { changeSet, pageQuery, timestamp } from './common';

const shortText = (max: number) => z.string().trim().min(1).max(max);
const communityFields = {
  name: shortText(200),
  project_name: shortText(200),
  type: z.enum(COMMUNITY_TYPES),
  whitelisted_external_role_ids: z.array(shortText(100)).max(500),
  whitelisted_usernames: z.array(shortText(100)).max(500),
  should_send_welcome_messages: z.boolean(),
  welcome_message: z.string().max(4000),
  alert_channel_message_template: z.string().max(2000).meta({ description: 'May contain {action} and {username}' }),
};
const optionalFields = {
  whitelisted_external_role_ids: communityFields.whitelisted_external_role_ids.optional(),
  whitelisted_usernames: communityFields.whitelisted_usernames.optional(),
  should_send_welcome_messages: communityFields.should_send_welcome_messages.optional(),
  welcome_message: communityFields.welcome_message.optional(),
  alert_channel_message_template: communityFields.alert_channel_message_template.optional(),
};

export const communityCreate = z
  .strictObject({ name: communityFields.name, project_name: communityFields.project_name, type: communityFields.type, ...optionalFields })
  .meta({ id: 'CommunityCreate' });

export const communityUpdate = changeSet(
  z.strictObject({ name: communityFields.name.optional(), project_name: communityFields.project_name.optional(), type: communityFields.type.optional(), ...optionalFields }),
  'CommunityUpdate',
);

export const community = z
  .object({
    id: z.uuid(),
    moderation_id: z.string(),
    activation_token: z.string().nullable().meta({ description: 'Null for channel types that need no activation' }),
    name: z.string(),
    project_name: z.string(),
    community_type: z.enum(COMMUNITY_TYPES),
    credits_charged: z.number().int(),
    status: z.enum(['connected', 'pending_activation', 'suspended', 'expired']),
    monthly_credit_cost: z.number().int(),
    next_billing_at: timestamp.nullable().meta({ description: 'Null once the community has expired' }),
    auto_renew: z.boolean(),
    whitelisted_external_role_ids: z.array(z.string()),
    whitelisted_usernames: z.array(z.string()),
    should_send_welcome_messages: z.boolean(),
    welcome_message: z.string().nullable(),
    alert_channel_message_template: z.string().nullable(),
    install_url: z.string().nullable().meta({ description: "Discord: the OAuth2 invite adding the operator's bot (scopes bot applications.commands); null for other types or without DISCORD_APPLICATION_ID" }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Community' });

const eventUser = z.strictObject({
  id: shortText(200),
  username: z.string().trim().max(200).default(''),
  role_ids: z.array(shortText(100)).max(100).optional(),
  joined_at: timestamp.optional(),
});

export const moderationEvent = z
  .strictObject({
    event_id: shortText(200),
    type: z.enum(['message', 'member_join', 'activation']),
    user: eventUser,
    text: z.string().max(10_000).optional(),
    token: z.string().max(200).optional(),
    sent_at: timestamp,
  })
  .meta({ id: 'ModerationEvent' });

export const MODERATION_ACTIONS = ['allow', 'delete', 'warn', 'mute', 'ban'] as const;

export const moderationDecision = z
  .object({
    event_id: z.string(),
    action: z.enum(MODERATION_ACTIONS).meta({ description: 'warn, mute and ban also remove the offending message' }),
    rule: z.string(),
    reason: z.string(),
    alert: z.string().optional().meta({ description: 'The alert template rendered, present when an action was taken' }),
    welcome_message: z.string().optional(),
  })
  .meta({ id: 'ModerationDecision' });

const decisions = z.object({ decisions: z.array(moderationDecision) }).meta({ id: 'ModerationDecisions' });

const deliveryState = z.object({
  status: z.enum(['pending', 'delivered', 'failed', 'not_configured', 'observe']),
  error: z.string().nullable().meta({ description: "The platform's error when failed" }),
});

export const moderationStatus = z
  .object({
    community_id: z.uuid(),
    moderation_id: z.string(),
    connection_state: z.enum(['connected', 'pending_activation', 'disconnected']),
    status: z.enum(['connected', 'pending_activation', 'suspended', 'expired']),
    metrics: z.object({
      messages_scanned: z.number().int(),
      messages_flagged: z.number().int(),
      actions: z.object({ delete: z.number().int(), warn: z.number().int(), mute: z.number().int(), ban: z.number().int() }),
      members_joined: z.number().int(),
      welcome_messages_sent: z.number().int(),
      spam_rate: z.number().meta({ description: 'messages_flagged / messages_scanned, 0..1, 4 decimals' }),
      last_event_at: timestamp.nullable(),
    }),
    audit_logs: z.array(
      z.object({
        id: z.string(),
        at: timestamp,
        event_id: z.string(),
        user_id: z.string(),
        username: z.string(),
        action: z.enum(['delete', 'warn', 'mute', 'ban']),
        rule: z.string(),
        reason: z.string(),
        message_excerpt: z.string(),
        alert_message: z.string(),
        delivery: deliveryState.nullable().meta({ description: "How the action went on the platform (contract 10); null where the community's own bot acts (events endpoint)" }),
        undo: deliveryState.extend({ at: timestamp }).nullable().meta({ description: 'The reversal of a mute or ban, once requested' }),
      }),
    ),
    platform: z
      .object({
        chat_id: z.string().nullable().meta({ description: 'Telegram group or Discord guild bound by /activate' }),
        alert_chat_id: z.string().nullable(),
        configured: z.boolean().meta({ description: "Whether this deployment has the platform's bot credentials; without them actions are recorded as not_configured" }),
        automod_synced_at: timestamp.nullable(),
        automod_error: z.string().nullable(),
        unsupported: z.array(z.string()).meta({ description: 'What this platform integration does not do, and why' }),
      })
      .nullable()
      .meta({ description: 'Telegram and Discord communities (contract 10); null for the others' }),
    last_synced_at: timestamp.nullable().meta({ description: 'When POST /sync last refreshed this status; null before the first sync' }),
  })
  .meta({ id: 'ModerationStatus' });

/** The subset of a Telegram Update the adapter reads; Telegram adds fields freely, so this one is not strict. */
const telegramUser = z.object({ id: z.number().int(), username: z.string().optional(), first_name: z.string().optional(), is_bot: z.boolean().optional() });
export const telegramUpdate = z
  .object({
    update_id: z.number().int(),
    message: z
      .object({
        message_id: z.number().int(),
        // Unix seconds; bounded so it always makes a Date (years 1970 to 9999).
        date: z.number().int().min(0).max(253_402_300_799),
        from: telegramUser.optional(),
        text: z.string().optional(),
        caption: z.string().optional(),
        new_chat_members: z.array(telegramUser).optional(),
      })
      .optional(),
  })
  .meta({ id: 'TelegramUpdate' });

export const communityIdParams = z.strictObject({ id: z.uuid() });
export const moderationTag = 'Community moderation';
export const moderationBase = '/api/v1/integrations/moderation';
const tag = moderationTag;
const base = moderationBase;

export const moderationEndpoints = {
  createCommunity: defineEndpoint({
    operationId: 'createCommunity', method: 'POST', path: `${base}/communities`, tag, auth: 'api_key', idempotent: true, successStatus: 201, errors: [402],
    summary: 'Provision a moderation community (charges 500 credits with the creation; 402 and nothing created when short)',
    body: communityCreate, response: community,
  }),
  listCommunities: defineEndpoint({
    operationId: 'listCommunities', method: 'GET', path: `${base}/communities`, summary: 'Your communities, newest first (sort_order=asc: oldest first)', tag, auth: 'api_key',
    query: z.strictObject(pageQuery), response: z.object({ items: z.array(community), total: z.number().int() }),
  }),
  getCommunity: defineEndpoint({
    operationId: 'getCommunity', method: 'GET', path: `${base}/communities/{id}`, summary: 'One community', tag, auth: 'api_key', params: communityIdParams, response: community,
  }),
  updateCommunity: defineEndpoint({
    operationId: 'updateCommunity', method: 'PUT', path: `${base}/communities/{id}`, tag, auth: 'api_key', params: communityIdParams,
    summary: 'Change any non-empty subset of the create fields; a new type re-evaluates activation (new activation_token where needed)',
    body: communityUpdate, response: community,
  }),
  setAutoRenew: defineEndpoint({
    operationId: 'setCommunityAutoRenew', method: 'POST', path: `${base}/communities/{id}/auto-renew`, tag, auth: 'api_key', params: communityIdParams, errors: [422],
    summary: 'Switch auto-renewal; with it off the community stays active until its period ends, then expires',
    body: z.strictObject({ auto_renew: z.boolean() }), response: community,
  }),
  deleteCommunity: defineEndpoint({
    operationId: 'deleteCommunity', method: 'DELETE', path: `${base}/communities/{id}`, summary: 'Remove a community; billing stops (irreversible)', tag, auth: 'api_key',
    params: communityIdParams, ...noContentSpec,
  }),
  postEvents: defineEndpoint({
    operationId: 'postModerationEvents', method: 'POST', path: `${base}/communities/{id}/events`, tag, auth: 'api_key', params: communityIdParams,
    summary: 'Chat events in, moderation decisions out (a re-delivered event_id is neither counted nor acted on again)',
    body: z.strictObject({ events: z.array(moderationEvent).min(1).max(100) }), response: decisions,
  }),
  telegramWebhook: defineEndpoint({
    operationId: 'telegramModerationWebhook', method: 'POST', path: `${base}/telegram/{moderation_id}`, tag, auth: 'none',
    summary: "Telegram's webhook; X-Telegram-Bot-Api-Secret-Token must equal the community's activation token",
    params: z.strictObject({ moderation_id: z.string().min(1).max(100) }), body: telegramUpdate, response: decisions,
    headers: [{ name: 'X-Telegram-Bot-Api-Secret-Token', required: true, description: "The community's activation token, as given to Telegram's setWebhook; a wrong one answers 404 like an unknown community", schema: z.string().min(1) }],
  }),
  getStatus: defineEndpoint({
    operationId: 'getModerationStatus', method: 'GET', path: `${base}/status`, tag, auth: 'api_key', errors: [404],
    summary: "Connection state, live metrics and the newest audit entries (default community: your newest)",
    query: z.strictObject({ community_id: z.uuid().optional(), include_logs: z.coerce.number().int().min(0).max(100).default(25) }),
    response: moderationStatus,
  }),
  sync: defineEndpoint({
    operationId: 'syncModeration', method: 'POST', path: `${base}/sync`, tag, auth: 'api_key', errors: [404],
    summary: 'Refresh a community status from strongly consistent reads and stamp last_synced_at',
    body: z.strictObject({ community_id: z.uuid() }), response: moderationStatus,
  }),
};
