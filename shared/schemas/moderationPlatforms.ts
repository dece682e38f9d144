/** Contract 10: per-community rules, undo, and the operator bot's Telegram webhook and Discord interactions. */
import * as z from 'zod';
import { defineEndpoint } from '#shared/http/endpoint';
import { changeSet } from './common';
import { communityIdParams, moderationBase, moderationTag } from './moderation';

const toggle = { enabled: z.boolean() };
const seconds = (max: number) => z.number().int().min(1).max(max);
const ruleSettings = {
  scam_phrase: z.strictObject(toggle),
  invite_link: z.strictObject(toggle),
  wallet_address: z.strictObject(toggle),
  link: z.strictObject(toggle),
  flood: z.strictObject({ ...toggle, max_messages: z.number().int().min(1).max(100), window_seconds: seconds(3600) }),
  repeated_message: z.strictObject({ ...toggle, max_copies: z.number().int().min(1).max(100), window_seconds: seconds(86_400) }),
  mass_mentions: z.strictObject({ ...toggle, max_mentions: z.number().int().min(1).max(50) }),
  blocked_word: z.strictObject(toggle),
  shouting: z.strictObject({ ...toggle, min_letters: z.number().int().min(1).max(1000), upper_ratio: z.number().min(0.5).max(1) }),
};
type Settings = typeof ruleSettings;
const partialSettings = Object.fromEntries(Object.entries(ruleSettings).map(([k, v]) => [k, v.partial()])) as { [K in keyof Settings]: ReturnType<Settings[K]['partial']> };

/** A domain as typed in an allowlist: lower-case labels, no scheme or path (Discord's allow_list takes at most 60 characters). */
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(60)
  .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/, 'A domain such as docs.example.com (no scheme, no path)');
/** Discord keyword filters take at most 60 characters a keyword. */
const word = z.string().trim().min(1).max(60);
const captcha = { enabled: z.boolean(), timeout_seconds: z.number().int().min(30).max(86_400) };
const common = {
  mode: z.enum(['enforce', 'observe']).meta({ description: 'observe: decisions and audit logs, no platform action' }),
  link_allowlist: z.array(domain).max(100),
  blocked_words: z.array(word).max(1000),
  warn_limit: z.number().int().min(0).max(10).meta({ description: 'Warnings before an offence escalates to a mute' }),
  new_member_days: z.number().int().min(0).max(365),
};

export const communityRules = z
  .strictObject({ ...common, rules: z.strictObject(ruleSettings), captcha: z.strictObject(captcha) })
  .meta({ id: 'CommunityRules' });

export const communityRulesUpdate = changeSet(
  z.strictObject({
    mode: common.mode.optional(),
    rules: z.strictObject(partialSettings).partial().optional(),
    link_allowlist: common.link_allowlist.optional(),
    blocked_words: common.blocked_words.optional(),
    warn_limit: common.warn_limit.optional(),
    new_member_days: common.new_member_days.optional(),
    captcha: z.strictObject(captcha).partial().optional(),
  }),
  'CommunityRulesUpdate',
);

export const undoResult = z
  .object({
    audit_id: z.string(),
    action: z.enum(['mute', 'ban']),
    delivery: z.enum(['pending', 'delivered', 'failed', 'not_configured', 'observe']),
    error: z.string().nullable(),
    undone_at: z.string(),
  })
  .meta({ id: 'ModerationUndo' });

/**
 * The parts of a Telegram Update the bot reads, checked so a malformed one is a 400, not a crash;
 * Telegram sends far more, and unknown fields pass (the update is Telegram's, not a client's).
 */
const tgUser = z.looseObject({ id: z.number().int(), is_bot: z.boolean().optional(), first_name: z.string().optional(), username: z.string().optional() });
const tgChat = z.looseObject({ id: z.number().int(), type: z.string() });
// Unix seconds; bounded so it always makes a Date (years 1970 to 9999).
const tgDate = z.number().int().min(0).max(253_402_300_799);
export const telegramOperatorUpdate = z
  .looseObject({
    update_id: z.number().int(),
    message: z
      .looseObject({
        message_id: z.number().int(),
        date: tgDate,
        chat: tgChat,
        from: tgUser.optional(),
        text: z.string().optional(),
        caption: z.string().optional(),
        new_chat_members: z.array(tgUser).optional(),
      })
      .optional(),
    callback_query: z
      .looseObject({
        id: z.string(),
        from: tgUser,
        data: z.string().optional(),
        message: z.looseObject({ message_id: z.number().int(), chat: tgChat }).optional(),
      })
      .optional(),
  })
  .meta({ id: 'TelegramOperatorUpdate' });

// The same tag, base path and community id as the rest of moderation (schemas/moderation.ts).
const tag = moderationTag;
const base = moderationBase;

export const platformEndpoints = {
  getRules: defineEndpoint({
    operationId: 'getCommunityRules', method: 'GET', path: `${base}/communities/{id}/rules`, tag, auth: 'api_key', params: communityIdParams, errors: [404],
    summary: "The community's rules (defaults until changed)", response: communityRules,
  }),
  putRules: defineEndpoint({
    operationId: 'putCommunityRules', method: 'PUT', path: `${base}/communities/{id}/rules`, tag, auth: 'api_key', params: communityIdParams, errors: [404],
    summary: 'Change any non-empty subset of the rules (rule settings merge per rule); a Discord guild gets its AutoMod rules rewritten',
    body: communityRulesUpdate, response: communityRules,
  }),
  undo: defineEndpoint({
    operationId: 'undoModerationAction', method: 'POST', path: `${base}/communities/{id}/audit-logs/{audit_id}/undo`, tag, auth: 'api_key', errors: [404, 422],
    summary: 'Lift a mute or ban on the platform and record the reversal (422 for actions that cannot be undone or were undone)',
    params: z.strictObject({ id: z.uuid(), audit_id: z.uuid() }), response: undoResult,
  }),
  telegramOperatorWebhook: defineEndpoint({
    operationId: 'telegramOperatorWebhook', method: 'POST', path: `${base}/telegram`, tag, auth: 'none', errors: [401],
    summary: "The operator bot's webhook: every Telegram update of every group the bot is in",
    headers: [{ name: 'X-Telegram-Bot-Api-Secret-Token', required: true, description: 'Must equal TELEGRAM_WEBHOOK_SECRET (401 otherwise)', schema: z.string().min(1) }],
    body: telegramOperatorUpdate, response: z.object({ ok: z.boolean() }),
  }),
  discordInteractions: defineEndpoint({
    operationId: 'discordInteractions', method: 'POST', path: `${base}/discord/interactions`, tag, auth: 'none', errors: [401], rawBody: true,
    summary: "Discord interactions (PING, /activate, /alerts), Ed25519-signed by Discord",
    headers: [
      { name: 'X-Signature-Ed25519', required: true, description: 'Hex Ed25519 signature of timestamp + body', schema: z.string() },
      { name: 'X-Signature-Timestamp', required: true, description: 'Signed with the body', schema: z.string() },
    ],
    response: z.looseObject({ type: z.number().int() }),
  }),
};
