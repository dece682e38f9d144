/**
 * Discord: no Gateway, so no message reaches us; the community's rules are written into
 * the guild's native AutoMod (automod.ts: a sync is the platform's own queued work), which decides
 * and acts itself, and POST /sync reads its executions back from the audit log (audit.ts). Interactions (/activate,
 * /alerts) arrive signed at their own endpoint (interactions.ts). Undo lifts a timeout or a ban through the REST API.
 */
import { DiscordRest } from './rest';
import { DISCORD_UNDO_CALLS } from './calls';
import { definePlatform } from '#shared/platforms/contract';
import { DISCORD_CREDENTIALS, type DiscordCredentials } from './credentials';
import { AUTOMOD_SYNC_WORK, requestAutomodSync } from './automod';
import { syncAutomodExecutions } from './audit';

/** A member of a guild. Discord's decisions are AutoMod's own: the engine plans none (decisions: null). */
export interface DiscordTarget {
  guildId: string;
  userId: string;
}

export const discord = definePlatform<DiscordTarget, DiscordCredentials>({
  type: 'discord',
  credentials: DISCORD_CREDENTIALS,
  send: async (call, { credentials: { botToken, apiBase } }) => {
    if (botToken === undefined) return 'not_configured';
    return new DiscordRest(botToken, apiBase).request(call.method as 'GET', call.route ?? '/', call.body);
  },
  ingest: { kind: 'webhook', path: '/integrations/moderation/discord/interactions' },
  // The guild's AutoMod holds the rules: a change is written there (observe writes them switched off).
  onRulesChanged: async (community, record, core) =>
    record.discordGuildId ? requestAutomodSync(core, community.userId, community.id) : undefined,
  // AutoMod acts by itself: rules written switched off while the community is not monitored, ours removed from a guild it left.
  onMonitoringChanged: async (community, record, core, left) =>
    record.discordGuildId
      ? requestAutomodSync(core, community.userId, community.id, left ? record.discordGuildId : undefined)
      : undefined,
  sync: syncAutomodExecutions,
  decisions: null,
  welcome: null,
  alert: null,
  undo: {
    delete: null,
    warn: null,
    mute: ({ place, userId }) => (place ? DISCORD_UNDO_CALLS.mute(place, userId) : undefined),
    ban: ({ place, userId }) => (place ? DISCORD_UNDO_CALLS.ban(place, userId) : undefined),
  },
  // AutoMod's entries come from the guild's audit log, which does not say which guild it was.
  actedIn: null,
  recordFields: { bound: 'discordGuildId', alert: 'discordAlertChannelId' },
  connectLink: null,
  forget: null,
  unsupported: [
    'Welcome messages: member joins reach a bot only over the Discord Gateway (a long-lived WebSocket), which a serverless deployment does not hold open; use Discord onboarding or a welcome channel instead.',
    "Per-message decisions are Discord AutoMod's (block, alert, timeout) from the rules the service writes into the guild; POST /sync reads its executions into metrics and audit logs. AutoMod cannot warn or ban.",
    'AutoMod cannot tell new members from others: the link and invite rules apply to every member except the exempt (whitelisted) roles; whitelisted usernames do not apply.',
  ],
  work: AUTOMOD_SYNC_WORK,
});
