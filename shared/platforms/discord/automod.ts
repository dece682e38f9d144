/**
 * Discord moderation without the Gateway: the community's rules are written into the guild's native
 * AutoMod, which then acts on every message itself. The rule bodies are built from the
 * rules document as data (AUTOMOD_RULES); a sync lists the guild's rules, creates ours that are
 * missing, modifies ours that exist and deletes ours no longer wanted, never touching anyone else's.
 * Discord's limits: 10 regex patterns of 260 characters and 1,000 keywords of 60 characters a keyword
 * rule, 100 allow-list entries, 20 exempt roles, six keyword rules, one spam and one mention-spam rule a guild.
 * Known phishing domains (the core's list, ModerationCore.leadingPhishingDomains) go in as keywords, as many as
 * one rule takes. The sync is Discord's own queued work (AUTOMOD_SYNC_WORK): the worker runs it through the registry.
 */
import type {
  APIAutoModerationAction,
  APIAutoModerationRule,
  RESTPostAPIAutoModerationRuleJSONBody,
} from 'discord-api-types/v10';
import { now } from '#shared/adapters/ports';
import { RetryLater, type CallOutcome } from '#shared/platforms/result';
import { getCommunity, type CommunityRecord } from '#shared/store/communitiesRepo';
import { boundCommunity } from '#shared/store/bindingsRepo';
import { getPlatformRecord } from '#shared/store/platformRepo';
import { EVERYTHING_DUE } from '#shared/store/keys';
import type { CommunityRules, RuleId } from '#shared/domain/moderation/communityRules';
import type { LabelledPattern, Rule } from '#shared/domain/moderation/rules';
import {
  MUTE_SECONDS,
  type ModerationCore,
  type PlatformWork,
  type PlatformWorkMessage,
  type RequeueReport,
} from '#shared/platforms/contract';
import { claimAutomodSync, listDueAutomodSyncs, recordAutomodSync, wantAutomodSync } from './automodSyncsRepo';

export const AUTOMOD_NAME_PREFIX = 'Outreach · ';
export const AUTOMOD_LIMITS = {
  regexPatterns: 10,
  regexLength: 260,
  keywords: 1000,
  keywordLength: 60,
  allowList: 100,
  exemptRoles: 20,
} as const;

// Discord's enum values (discord-api-types' enums are runtime values; this module imports types only).
const TRIGGER = { keyword: 1, spam: 3, mentionSpam: 5 } as const;
const ACTION = { block: 1, alert: 2, timeout: 3 } as const;
const MESSAGE_SEND = 1;

const builtIn = (rules: readonly Rule[], id: RuleId) => rules.find((r) => r.id === id) as Rule;
const patternsOf = (rules: readonly Rule[], id: RuleId): LabelledPattern[] => {
  const rule = builtIn(rules, id);
  return rule.kind === 'phrases' ? rule.phrases : rule.kind === 'patterns' ? rule.patterns : [];
};

/** JavaScript patterns as Discord's (Rust) regex: the i flag becomes (?i); over-long ones cannot be sent. */
export function toDiscordRegex(patterns: LabelledPattern[]): string[] {
  return patterns
    .map(({ pattern }) => `${pattern.flags.includes('i') ? '(?i)' : ''}${pattern.source}`)
    .filter((p) => p.length <= AUTOMOD_LIMITS.regexLength)
    .slice(0, AUTOMOD_LIMITS.regexPatterns);
}

/** What the core holds that a rule may draw on beside the community's rules document. */
export interface AutomodInputs {
  /** The built-in rules (ModerationCore.builtInRules), whose phrases, patterns and words the rules carry. */
  builtInRules: readonly Rule[];
  /** Known phishing domains, the list's leading ones in its own order (ModerationCore.leadingPhishingDomains). */
  phishingDomains: string[];
  /** False: every rule is written switched off (the community observes, or is not monitored). */
  enforce: boolean;
}

interface RuleTemplate {
  name: string;
  /** Which of the community's rules switch this AutoMod rule on. */
  enabledBy: RuleId[];
  severe: boolean;
  /** False when the rule would have nothing to match (no list yet): it is not written, or taken off the guild. */
  present?: (lists: AutomodInputs) => boolean;
  body: (
    doc: CommunityRules,
    lists: AutomodInputs,
  ) => Pick<RESTPostAPIAutoModerationRuleJSONBody, 'trigger_type' | 'trigger_metadata'>;
}

/** The community's own sites and the domains it allows: links to them never trip a rule. */
const allowList = (doc: CommunityRules) =>
  [...new Set([...doc.official_domains, ...doc.link_allowlist])].slice(0, AUTOMOD_LIMITS.allowList);

/**
 * Phishing domains as AutoMod keywords. Discord matches a plain keyword only as a whole word between
 * spaces, which a domain inside a URL never is; `*domain*` matches it anywhere (`https://login.domain/x`
 * too). A domain whose keyword would also match one of the community's allowed domains is left out, and
 * so are those too long for a keyword; the first 1,000 that remain are sent.
 */
export function phishingKeywords(domains: string[], allowed: string[]): string[] {
  const maxDomain = AUTOMOD_LIMITS.keywordLength - 2;
  const kept = new Set<string>();
  for (const domain of domains) {
    if (kept.size >= AUTOMOD_LIMITS.keywords) break;
    if (domain.length > maxDomain || allowed.some((a) => a.includes(domain) || domain.endsWith(`.${a}`))) continue;
    kept.add(domain);
  }
  return [...kept].map((domain) => `*${domain}*`);
}

/** The community's rules as AutoMod rules: what Discord can enforce for every member alike. */
export const AUTOMOD_RULES: RuleTemplate[] = [
  {
    name: 'Scam phrases',
    enabledBy: ['scam_phrase'],
    severe: true,
    body: (_doc, lists) => ({
      trigger_type: TRIGGER.keyword,
      trigger_metadata: {
        keyword_filter: [],
        regex_patterns: toDiscordRegex(patternsOf(lists.builtInRules, 'scam_phrase')),
      },
    }),
  },
  {
    name: 'Invite links',
    enabledBy: ['invite_link'],
    severe: false,
    body: (doc, lists) => ({
      trigger_type: TRIGGER.keyword,
      trigger_metadata: {
        keyword_filter: [],
        regex_patterns: toDiscordRegex(patternsOf(lists.builtInRules, 'invite_link')),
        allow_list: allowList(doc),
      },
    }),
  },
  {
    name: 'Links',
    enabledBy: ['link'],
    severe: false,
    body: (doc, lists) => ({
      trigger_type: TRIGGER.keyword,
      trigger_metadata: {
        keyword_filter: [],
        regex_patterns: toDiscordRegex(patternsOf(lists.builtInRules, 'link').slice(0, 1)),
        allow_list: allowList(doc),
      },
    }),
  },
  {
    name: 'Blocked words',
    enabledBy: ['blocked_word'],
    severe: false,
    body: (doc, lists) => {
      const words = builtIn(lists.builtInRules, 'blocked_word');
      const all = [
        ...new Set([...(words.kind === 'words' ? words.words : []), ...doc.blocked_words.map((w) => w.toLowerCase())]),
      ];
      return {
        trigger_type: TRIGGER.keyword,
        trigger_metadata: {
          keyword_filter: all.filter((w) => w.length <= AUTOMOD_LIMITS.keywordLength).slice(0, AUTOMOD_LIMITS.keywords),
        },
      };
    },
  },
  // Switched by scam_phrase rather than link: a known phishing link is a scam whoever posts it, so it is
  // blocked (with a timeout, as scam phrases are) for established members too, in communities that allow links.
  {
    name: 'Phishing domains',
    enabledBy: ['phishing'],
    severe: true,
    present: (lists) => lists.phishingDomains.length > 0,
    body: (doc, lists) => ({
      trigger_type: TRIGGER.keyword,
      trigger_metadata: {
        keyword_filter: phishingKeywords(lists.phishingDomains, [...doc.link_allowlist, ...doc.official_domains]),
        allow_list: allowList(doc),
      },
    }),
  },
  {
    name: 'Mention spam',
    enabledBy: ['mass_mentions'],
    severe: false,
    body: (doc) => ({
      trigger_type: TRIGGER.mentionSpam,
      trigger_metadata: {
        mention_total_limit: doc.rules.mass_mentions.max_mentions,
        mention_raid_protection_enabled: true,
      },
    }),
  },
  {
    name: 'Spam',
    enabledBy: ['flood', 'repeated_message'],
    severe: false,
    body: () => ({ trigger_type: TRIGGER.spam }),
  },
];

/** Block always; alert when an alert channel is set; a timeout for severe rules (keyword and mention rules only, as Discord allows). */
function actionsFor(
  template: RuleTemplate,
  triggerType: number,
  alertChannelId: string | undefined,
): APIAutoModerationAction[] {
  const actions: APIAutoModerationAction[] = [
    { type: ACTION.block, metadata: { custom_message: 'Blocked by the community moderation rules.' } },
  ];
  if (alertChannelId) actions.push({ type: ACTION.alert, metadata: { channel_id: alertChannelId } });
  if (template.severe && triggerType !== TRIGGER.spam)
    actions.push({ type: ACTION.timeout, metadata: { duration_seconds: MUTE_SECONDS } });
  return actions;
}

export function automodRulesFor(
  doc: CommunityRules,
  community: Pick<CommunityRecord, 'whitelistedRoleIds'>,
  alertChannelId: string | undefined,
  lists: AutomodInputs,
): RESTPostAPIAutoModerationRuleJSONBody[] {
  return AUTOMOD_RULES.filter((template) => template.present?.(lists) ?? true).map((template) => {
    const body = template.body(doc, lists);
    return {
      name: `${AUTOMOD_NAME_PREFIX}${template.name}`,
      event_type: MESSAGE_SEND,
      ...body,
      actions: actionsFor(template, body.trigger_type, alertChannelId),
      // Observe performs no action: the rules stay in the guild, switched off, until the mode is enforce again.
      enabled: lists.enforce && template.enabledBy.some((id) => doc.rules[id].enabled),
      exempt_roles: community.whitelistedRoleIds.slice(0, AUTOMOD_LIMITS.exemptRoles),
      exempt_channels: [],
    };
  });
}

const discord = (core: ModerationCore, method: string, route: string, body?: unknown) =>
  core.callPlatform({
    platform: 'discord',
    method,
    route,
    ...(body === undefined ? {} : { body: body as Record<string, unknown> }),
  });

/** The queue message of one requested sync (its shape is the core's PlatformWorkMessage). */
const AUTOMOD_SYNC = 'moderation.automod_sync';
const syncMessage = (userId: string, communityId: string): PlatformWorkMessage => ({
  kind: AUTOMOD_SYNC,
  user_id: userId,
  community_id: communityId,
});

/** A rate limit postpones the whole sync (it is idempotent); anything else is reported. */
function checked(outcome: CallOutcome | 'not_configured'): CallOutcome {
  if (outcome === 'not_configured') throw new NotConfigured();
  if (!outcome.ok && outcome.retryAfterSeconds !== undefined)
    throw new RetryLater(outcome.retryAfterSeconds, outcome.error);
  return outcome;
}
class NotConfigured extends Error {}

/** How long a requested sync may take to run before its queue message counts as lost and the sweep sends it again. */
const AUTOMOD_SYNC_LOST_AFTER_MS = 10 * 60 * 1000;
const lostAfter = (atMs: number) => new Date(atMs + AUTOMOD_SYNC_LOST_AFTER_MS).toISOString();

/**
 * Asks for the community's AutoMod rules to be written to its guild (or, with `leftGuildId`, taken off
 * a guild it left): the request is recorded (due for the sweep if no sync runs after it) before its
 * queue message goes, so a lost message, or a send that failed, is sent again by the 5-minute sweep
 * rather than leaving the guild's rules stale. The sync reads the guild left from that record.
 */
export async function requestAutomodSync(
  core: ModerationCore,
  userId: string,
  communityId: string,
  leftGuildId?: string,
): Promise<void> {
  const at = now();
  await wantAutomodSync(communityId, userId, at.toISOString(), lostAfter(at.getTime()), leftGuildId);
  await core.queueWork(syncMessage(userId, communityId));
}

/**
 * The sweep: every requested sync still due (no sync ran after it) is claimed, moved on, and sent
 * again once; `resume` (the local runtime's start, whose queue died with the last process) sends
 * every one still wanted.
 */
export async function requeueDueAutomodSyncs(
  core: ModerationCore,
  options: { resume?: boolean } = {},
): Promise<RequeueReport> {
  const at = now().getTime();
  const due = await listDueAutomodSyncs(options.resume ? EVERYTHING_DUE : new Date(at).toISOString());
  let requeued = 0;
  for (const sync of due) {
    if (!(await claimAutomodSync(sync.communityId, sync.dueKey, lostAfter(at)))) continue;
    await core.queueWork(syncMessage(sync.owner, sync.communityId));
    requeued += 1;
  }
  return { due: due.length, requeued };
}

/**
 * Writes the community's rules into its guild (requested on activation, /alerts, every rules change, and
 * when its monitoring stops or starts again): switched off while it is not monitored (suspended, expired),
 * as in observe mode. A guild the community left (deleted, or its type changed) keeps none of the
 * service's rules, unless another community has bound it since (they are that one's now).
 */
export async function syncAutomod(core: ModerationCore, userId: string, communityId: string): Promise<void> {
  const startedAt = now().toISOString();
  const community = await getCommunity(userId, communityId, true);
  const platform = await getPlatformRecord(communityId);
  const stays = community?.type === 'discord';
  // A type change took the binding off the record: the request recorded the guild it left. A deleted
  // community's record still names its guild (the binding is kept until another claims it).
  const guild = stays ? platform.discordGuildId : (platform.automodLeftGuildId ?? platform.discordGuildId);
  // Nothing to write any more (unbound, or a guild that is another community's now): the request is answered all the same.
  if (!guild) return recordAutomodSync(communityId, startedAt, {});
  if (!stays) {
    const holder = await boundCommunity('discord', guild, true);
    if (holder && holder.communityId !== communityId) return recordAutomodSync(communityId, startedAt, {});
  }
  const rules = await core.rulesOf(communityId, true);
  const monitored = community !== undefined && core.communityStatus(community) === 'connected';
  const desired = stays
    ? automodRulesFor(rules, community, platform.discordAlertChannelId, {
        builtInRules: core.builtInRules,
        phishingDomains: await core.leadingPhishingDomains(),
        enforce: monitored && !core.observes(rules),
      })
    : [];
  const errors: string[] = [];
  try {
    const listed = checked(await discord(core, 'GET', `/guilds/${guild}/auto-moderation/rules`));
    if (!listed.ok) throw new Error(listed.error);
    const ours = (listed.result as APIAutoModerationRule[]).filter((r) => r.name.startsWith(AUTOMOD_NAME_PREFIX));
    for (const rule of desired) {
      const existing = ours.find((r) => r.name === rule.name);
      const { trigger_type: _t, ...changes } = rule;
      const out = checked(
        existing
          ? await discord(core, 'PATCH', `/guilds/${guild}/auto-moderation/rules/${existing.id}`, changes)
          : await discord(core, 'POST', `/guilds/${guild}/auto-moderation/rules`, rule),
      );
      if (!out.ok) errors.push(out.error);
    }
    for (const stale of ours.filter((r) => !desired.some((d) => d.name === r.name))) {
      const out = checked(await discord(core, 'DELETE', `/guilds/${guild}/auto-moderation/rules/${stale.id}`));
      if (!out.ok) errors.push(out.error);
    }
  } catch (err) {
    if (err instanceof RetryLater) throw err;
    errors.push(
      err instanceof NotConfigured
        ? 'discord is not configured on this deployment (not_configured)'
        : (err as Error).message,
    );
  }
  await recordAutomodSync(communityId, startedAt, {
    automodSyncedAt: now().toISOString(),
    automodError: errors.length ? errors.join('; ') : null,
  });
}

/** The sync as the platform's own queued work: the worker runs it, the renewals function's sweep sends a lost one again. */
export const AUTOMOD_SYNC_WORK: PlatformWork = {
  kind: AUTOMOD_SYNC,
  run: (message, core) => syncAutomod(core, message.user_id, message.community_id),
  requeue: requeueDueAutomodSyncs,
  sweep: { name: 'automod_syncs', log: 'lost AutoMod syncs queued again', resumed: 'AutoMod rule syncs' },
};
