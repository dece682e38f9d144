/** Per-community rules, undo, and the operator's platform entry points: Telegram's webhook, Discord's interactions, Crisp's plugin hooks. */
import * as z from '#shared/zod';
import { withMeta } from '#shared/zod';
import { defineEndpoint } from '#shared/schemas/endpoint';
import { changeSet } from './common';
import { communityIdParams, detectorSignal, moderationBase, moderationTag } from './moderation';
import { noContentSpec } from './noContent';

const toggle = { enabled: z.boolean() };
const seconds = (max: number) => z.int().check(z.gte(1), z.lte(max));
const ruleSettings = {
  scam_phrase: z.strictObject(toggle),
  invite_link: z.strictObject(toggle),
  wallet_address: z.strictObject(toggle),
  link: z.strictObject(toggle),
  flood: z.strictObject({
    ...toggle,
    max_messages: z.int().check(z.gte(1), z.lte(100)),
    window_seconds: seconds(3600),
  }),
  repeated_message: z.strictObject({
    ...toggle,
    max_copies: z.int().check(z.gte(1), z.lte(100)),
    window_seconds: seconds(86_400),
  }),
  mass_mentions: z.strictObject({ ...toggle, max_mentions: z.int().check(z.gte(1), z.lte(50)) }),
  blocked_word: z.strictObject(toggle),
  shouting: z.strictObject({
    ...toggle,
    min_letters: z.int().check(z.gte(1), z.lte(1000)),
    upper_ratio: z.number().check(z.gte(0.5), z.lte(1)),
  }),
  phishing: withMeta(z.strictObject(toggle), {
    description: 'Known phishing domains, and look-alikes of official_domains and official_handles',
  }),
  phone_number: z.strictObject(toggle),
  mixed_script: withMeta(z.strictObject(toggle), {
    description: 'Words written with look-alike letters of another alphabet',
  }),
  text_model: withMeta(z.strictObject(toggle), { description: 'What the community taught through its examples' }),
  shared_spam: withMeta(z.strictObject(toggle), {
    description: 'Messages confirmed as spam by communities of several different owners',
  }),
};
type Settings = typeof ruleSettings;
const partialSettings = Object.fromEntries(Object.entries(ruleSettings).map(([k, v]) => [k, z.partial(v)])) as {
  [K in keyof Settings]: ReturnType<typeof z.partial<Settings[K]>>;
};

/** A domain as typed in an allowlist: lower-case labels, no scheme or path (Discord's allow_list takes at most 60 characters). */
const domain = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(60),
    z.regex(
      /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/,
      'A domain such as docs.example.com (no scheme, no path)',
    ),
  );
/** Discord keyword filters take at most 60 characters a keyword. */
const word = z.string().check(z.trim(), z.minLength(1), z.maxLength(60));
const captcha = { enabled: z.boolean(), timeout_seconds: z.int().check(z.gte(30), z.lte(86_400)) };
/** An account as written in a mention: an optional @ or u/, then letters, digits, _ . - */
const handle = z
  .string()
  .check(
    z.trim(),
    z.minLength(2),
    z.maxLength(100),
    z.regex(/^(@|u\/)?[\p{L}\p{N}_.-]+$/u, 'An account name such as @project'),
  );
const common = {
  mode: withMeta(z.enum(['enforce', 'observe']), {
    description: 'observe: decisions and audit logs, no platform action',
  }),
  sensitivity: withMeta(z.enum(['low', 'medium', 'high']), {
    description: 'How sure the detector must be before it removes, warns, mutes or bans (high acts soonest)',
  }),
  official_domains: withMeta(z.array(domain).check(z.maxLength(50)), {
    description: "The community's own sites: links to them never count, look-alikes of them do",
  }),
  official_handles: withMeta(z.array(handle).check(z.maxLength(50)), {
    description: "The community's own accounts: look-alikes in mentions and senders' names count against a message",
  }),
  link_allowlist: z.array(domain).check(z.maxLength(100)),
  blocked_words: z.array(word).check(z.maxLength(1000)),
  warn_limit: withMeta(z.int().check(z.gte(0), z.lte(10)), {
    description: 'Warnings before an offence escalates to a mute',
  }),
  new_member_days: z.int().check(z.gte(0), z.lte(365)),
};

export const communityRules = withMeta(
  z.strictObject({ ...common, rules: z.strictObject(ruleSettings), captcha: z.strictObject(captcha) }),
  { id: 'CommunityRules' },
);

export const communityRulesUpdate = changeSet(
  z.strictObject({
    mode: z.optional(common.mode),
    sensitivity: z.optional(common.sensitivity),
    official_domains: z.optional(common.official_domains),
    official_handles: z.optional(common.official_handles),
    rules: z.optional(z.partial(z.strictObject(partialSettings))),
    link_allowlist: z.optional(common.link_allowlist),
    blocked_words: z.optional(common.blocked_words),
    warn_limit: z.optional(common.warn_limit),
    new_member_days: z.optional(common.new_member_days),
    captcha: z.optional(z.partial(z.strictObject(captcha))),
  }),
  'CommunityRulesUpdate',
);

/** A message's text as a member could write it (Telegram's limit is 4,096 characters). */
const messageText = z.string().check(z.minLength(1), z.maxLength(4096));
const name = z.string().check(z.maxLength(200));

export const checkRequest = withMeta(
  z.strictObject({
    messages: z
      .array(
        z.strictObject({
          text: messageText,
          is_new_member: z._default(z.boolean(), false),
          username: z.optional(name),
          display_name: z.optional(name),
        }),
      )
      .check(z.minLength(1), z.maxLength(100)),
  }),
  { id: 'ModerationCheckRequest' },
);

export const checkResult = withMeta(
  z.object({
    results: z.array(
      z.object({
        verdict: withMeta(z.enum(['spam', 'ham']), { description: 'spam exactly when action is not allow' }),
        action: withMeta(z.enum(['allow', 'delete', 'warn', 'mute', 'ban']), {
          description: 'What enforcement would do (also in observe mode)',
        }),
        score: z.number().check(z.gte(0), z.lte(1)),
        signals: z.array(detectorSignal),
      }),
    ),
  }),
  { id: 'ModerationCheckResult' },
);

export const examplesRequest = withMeta(
  z.strictObject({
    examples: z
      .array(z.strictObject({ text: messageText, label: z.enum(['spam', 'ham']) }))
      .check(z.minLength(1), z.maxLength(500)),
  }),
  { id: 'ModerationExamples' },
);

export const examplesResult = withMeta(
  z.object({
    accepted: z.int(),
    examples_total: withMeta(z.int(), { description: 'Examples the community has been taught in all' }),
  }),
  { id: 'ModerationExamplesResult' },
);

export const undoResult = withMeta(
  z.object({
    audit_id: z.string(),
    action: withMeta(z.enum(['delete', 'mute', 'ban']), {
      description: 'A delete only where the platform can restore the item (a removal approved again, a reply unhidden)',
    }),
    delivery: z.enum(['pending', 'delivered', 'failed', 'not_configured', 'observe']),
    error: z.nullable(z.string()),
    undone_at: z.string(),
  }),
  { id: 'ModerationUndo' },
);

/**
 * The parts of a Telegram Update the bot reads, checked so a malformed one is a 400, not a crash;
 * Telegram sends far more, and unknown fields pass (the update is Telegram's, not a client's).
 */
const tgUser = z.looseObject({
  id: z.int(),
  is_bot: z.optional(z.boolean()),
  first_name: z.optional(z.string()),
  username: z.optional(z.string()),
});
const tgChat = z.looseObject({ id: z.int(), type: z.string() });
// Unix seconds; bounded so it always makes a Date (years 1970 to 9999).
const tgDate = z.int().check(z.gte(0), z.lte(253_402_300_799));
export const telegramOperatorUpdate = withMeta(
  z.looseObject({
    update_id: z.int(),
    message: z.optional(
      z.looseObject({
        message_id: z.int(),
        date: tgDate,
        chat: tgChat,
        from: z.optional(tgUser),
        text: z.optional(z.string()),
        caption: z.optional(z.string()),
        new_chat_members: z.optional(z.array(tgUser)),
      }),
    ),
    callback_query: z.optional(
      z.looseObject({
        id: z.string(),
        from: tgUser,
        data: z.optional(z.string()),
        message: z.optional(z.looseObject({ message_id: z.int(), chat: tgChat })),
      }),
    ),
  }),
  { id: 'TelegramOperatorUpdate' },
);

/**
 * A Crisp plugin hook: the envelope is checked here; `data` differs per event (a message's fields are
 * read one by one where it is moderated), and unknown fields pass, as the hook is Crisp's.
 */
export const crispPluginHook = withMeta(
  z.looseObject({
    website_id: z.string().check(z.minLength(1), z.maxLength(200)),
    event: z.string().check(z.minLength(1), z.maxLength(100)),
    timestamp: z.optional(z.number()),
    data: z.optional(z.record(z.string(), z.unknown())),
  }),
  { id: 'CrispPluginHook' },
);

// The same tag, base path and community id as the rest of moderation (schemas/moderation.ts).
const tag = moderationTag;
const base = moderationBase;

export const platformEndpoints = {
  getRules: defineEndpoint({
    operationId: 'getCommunityRules',
    method: 'GET',
    path: `${base}/communities/{id}/rules`,
    tag,
    auth: 'api_key',
    params: communityIdParams,
    errors: [404],
    summary: "The community's rules (defaults until changed)",
    response: communityRules,
  }),
  putRules: defineEndpoint({
    operationId: 'putCommunityRules',
    method: 'PUT',
    path: `${base}/communities/{id}/rules`,
    tag,
    auth: 'api_key',
    params: communityIdParams,
    errors: [404],
    summary:
      'Change any non-empty subset of the rules (rule settings merge per rule); a Discord guild gets its AutoMod rules rewritten',
    body: communityRulesUpdate,
    response: communityRules,
  }),
  checkMessages: defineEndpoint({
    operationId: 'checkModerationMessages',
    method: 'POST',
    path: `${base}/communities/{id}/check`,
    tag,
    auth: 'api_key',
    params: communityIdParams,
    errors: [404],
    summary: 'Judge up to 100 messages as the community would now, without acting (free)',
    description:
      'Each message is judged alone, from a member with no earlier offences and no recent messages; nothing is acted on, counted, recorded or remembered. Any community status.',
    body: checkRequest,
    response: checkResult,
  }),
  teachExamples: defineEndpoint({
    operationId: 'teachModerationExamples',
    method: 'POST',
    path: `${base}/communities/{id}/examples`,
    tag,
    auth: 'api_key',
    params: communityIdParams,
    errors: [404, 409, 422],
    summary: "Teach the community's text model 1 to 500 labelled messages (free); its next judgement uses them",
    body: examplesRequest,
    response: examplesResult,
  }),
  forgetExamples: defineEndpoint({
    operationId: 'forgetModerationExamples',
    method: 'DELETE',
    path: `${base}/communities/{id}/examples`,
    tag,
    auth: 'api_key',
    params: communityIdParams,
    errors: [404],
    summary: 'Forget everything the community was taught',
    ...noContentSpec,
  }),
  undo: defineEndpoint({
    operationId: 'undoModerationAction',
    method: 'POST',
    path: `${base}/communities/{id}/audit-logs/{audit_id}/undo`,
    tag,
    auth: 'api_key',
    errors: [404, 422],
    summary:
      'Lift a mute or ban (or restore a removed item, where the platform can) and record the reversal (422 for actions that cannot be undone or were undone)',
    params: z.strictObject({ id: z.uuid(), audit_id: z.uuid() }),
    response: undoResult,
  }),
  telegramOperatorWebhook: defineEndpoint({
    operationId: 'telegramOperatorWebhook',
    method: 'POST',
    path: `${base}/telegram`,
    tag,
    auth: 'none',
    callerSecret: 'telegram_webhook_secret',
    errors: [401],
    summary: "The operator bot's webhook: every Telegram update of every group the bot is in",
    headers: [
      {
        name: 'X-Telegram-Bot-Api-Secret-Token',
        required: true,
        description: 'Must equal TELEGRAM_WEBHOOK_SECRET (401 otherwise)',
        schema: z.string().check(z.minLength(1)),
      },
    ],
    body: telegramOperatorUpdate,
    response: z.object({ ok: z.boolean() }),
  }),
  crispHook: defineEndpoint({
    operationId: 'crispPluginHook',
    method: 'POST',
    path: `${base}/crisp`,
    tag,
    auth: 'none',
    callerSecret: 'crisp_hook_signature',
    errors: [401],
    summary: "The operator's Crisp plugin hooks: messages of every website that installed the plugin",
    headers: [
      {
        name: 'X-Crisp-Signature',
        required: true,
        description:
          'Hex HMAC-SHA256 of "[" + timestamp + ";" + JSON body + "]", keyed with CRISP_HOOK_SECRET (401 otherwise)',
        schema: z.string(),
      },
      {
        name: 'X-Crisp-Request-Timestamp',
        required: true,
        description: 'Signed with the body; within 15 minutes of now',
        schema: z.string(),
      },
    ],
    body: crispPluginHook,
    response: z.object({ ok: z.boolean() }),
  }),
  discordInteractions: defineEndpoint({
    operationId: 'discordInteractions',
    method: 'POST',
    path: `${base}/discord/interactions`,
    tag,
    auth: 'none',
    errors: [401],
    rawBody: true,
    summary: 'Discord interactions (PING, /activate, /alerts), Ed25519-signed by Discord',
    headers: [
      {
        name: 'X-Signature-Ed25519',
        required: true,
        description: 'Hex Ed25519 signature of timestamp + body',
        schema: z.string(),
      },
      { name: 'X-Signature-Timestamp', required: true, description: 'Signed with the body', schema: z.string() },
    ],
    response: z.looseObject({ type: z.int() }),
  }),
};
