/**
 * A recording stand-in for the Discord REST API v10 routes the service uses: guild AutoMod rules
 * (list, create, modify, delete), member timeouts, bans, the guild audit log and the bulk overwrite
 * of application commands. Authorization must be `Bot {token}`; errors are `{code, message}`; a
 * scripted 429 answers `Retry-After` and `{message, retry_after, global}` like Discord does.
 */
import { randomInt } from 'node:crypto';
import type { APIAuditLogEntry, APIAutoModerationRule } from 'discord-api-types/v10';
import { startJsonServer } from './httpStandIn';

export interface DiscordCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
}

/**
 * Snowflakes carry their millisecond in the bits above 22; each new one is a millisecond later, as real ones mostly are.
 * The low 22 bits (Discord's worker and process ids) are drawn at random for each test file: files run against one
 * table (at once, or one after another in a reused worker), and a guild id shared by two would be bound twice.
 */
let snowflake = 1_300_000_000_000_000_000n + BigInt(randomInt(1 << 22));
export const nextSnowflake = () => {
  snowflake += 1n << 22n;
  return String(snowflake);
};

/**
 * Discord's trigger metadata limits (a keyword rule: 1,000 keywords of 60 characters, 10 regex patterns
 * of 260, 100 allow-list entries of 60): a body past them is refused with 50035, as Discord refuses it.
 */
function overLimits(metadata: APIAutoModerationRule['trigger_metadata'] | undefined): boolean {
  if (!metadata) return false;
  const over = (list: string[] | undefined, count: number, length: number) =>
    (list?.length ?? 0) > count || (list ?? []).some((entry) => entry.length > length);
  return (
    over(metadata.keyword_filter, 1000, 60) ||
    over(metadata.regex_patterns, 10, 260) ||
    over(metadata.allow_list, 100, 60)
  );
}

/**
 * Whether a keyword matches the content as Discord documents its keyword matching strategies (case
 * insensitive): `*word*` anywhere, `word*` at the start of a word, `*word` at the end of one, and a
 * plain keyword as a whole word or phrase between spaces.
 */
export function keywordMatches(keyword: string, content: string): boolean {
  const text = content.toLowerCase();
  const start = keyword.startsWith('*');
  const end = keyword.endsWith('*') && keyword.length > 1;
  const term = keyword.slice(start ? 1 : 0, end ? -1 : undefined).toLowerCase();
  if (start && end) return text.includes(term);
  const words = text.split(/\s+/);
  if (end) return words.some((w) => w.startsWith(term));
  if (start) return words.some((w) => w.endsWith(term));
  return ` ${words.join(' ')} `.includes(` ${term} `);
}

export async function startDiscordStandIn(token: string) {
  const calls: DiscordCall[] = [];
  const rules = new Map<string, APIAutoModerationRule[]>();
  const auditLog = new Map<string, APIAuditLogEntry[]>();
  const rateLimits: { path: RegExp; retryAfter: number }[] = [];

  const server = await startJsonServer((req) => {
    if (req.headers.authorization !== `Bot ${token}`)
      return { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    calls.push({ method: req.method, path: req.path, query: Object.fromEntries(req.query), body: req.body });
    const limit = rateLimits.findIndex((r) => r.path.test(req.path));
    if (limit >= 0) {
      const [{ retryAfter }] = rateLimits.splice(limit, 1);
      return {
        status: 429,
        headers: { 'retry-after': String(Math.ceil(retryAfter)), 'x-ratelimit-scope': 'user' },
        body: { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
      };
    }
    const parts = req.path.split('/').filter(Boolean);
    // /guilds/{g}/auto-moderation/rules[/{id}]
    if (parts[0] === 'guilds' && parts[2] === 'auto-moderation' && parts[3] === 'rules') {
      const guild = parts[1];
      const list = rules.get(guild) ?? [];
      rules.set(guild, list);
      if (req.method === 'GET' && !parts[4]) return { status: 200, body: list };
      if (req.method === 'POST') {
        const rule = {
          id: nextSnowflake(),
          guild_id: guild,
          creator_id: '1',
          enabled: false,
          exempt_roles: [],
          exempt_channels: [],
          ...req.body,
        } as APIAutoModerationRule;
        // Discord: at most one spam (3) and one mention-spam (5) rule per guild, six keyword (1) rules.
        const sameType = list.filter((r) => r.trigger_type === rule.trigger_type).length;
        if ((rule.trigger_type === 3 || rule.trigger_type === 5) && sameType >= 1)
          return { status: 400, body: { code: 50035, message: 'Invalid Form Body' } };
        if (rule.trigger_type === 1 && sameType >= 6)
          return { status: 400, body: { code: 50035, message: 'Invalid Form Body' } };
        if (overLimits(rule.trigger_metadata))
          return { status: 400, body: { code: 50035, message: 'Invalid Form Body' } };
        list.push(rule);
        return { status: 200, body: rule };
      }
      const index = list.findIndex((r) => r.id === parts[4]);
      if (index < 0) return { status: 404, body: { code: 10066, message: 'Unknown Auto Moderation Rule' } };
      if (req.method === 'PATCH') {
        if (overLimits(req.body?.trigger_metadata))
          return { status: 400, body: { code: 50035, message: 'Invalid Form Body' } };
        list[index] = { ...list[index], ...req.body };
        return { status: 200, body: list[index] };
      }
      if (req.method === 'DELETE') {
        list.splice(index, 1);
        return { status: 204 };
      }
    }
    if (parts[0] === 'guilds' && parts[2] === 'members' && req.method === 'PATCH')
      return {
        status: 200,
        body: { user: { id: parts[3] }, communication_disabled_until: req.body?.communication_disabled_until ?? null },
      };
    if (parts[0] === 'guilds' && parts[2] === 'bans' && req.method === 'DELETE') return { status: 204 };
    if (parts[0] === 'guilds' && parts[2] === 'audit-logs' && req.method === 'GET') {
      const type = req.query.get('action_type');
      const after = req.query.get('after');
      const before = req.query.get('before');
      // As Discord: newest first, `before` and `after` exclusive bounds on the entry id, at most `limit`.
      const entries = (auditLog.get(parts[1]) ?? [])
        .filter((e) => !type || String(e.action_type) === type)
        .filter((e) => !after || BigInt(e.id) > BigInt(after))
        .filter((e) => !before || BigInt(e.id) < BigInt(before))
        .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
        .slice(0, Number(req.query.get('limit') ?? 50));
      return {
        status: 200,
        body: {
          audit_log_entries: entries,
          users: [],
          auto_moderation_rules: rules.get(parts[1]) ?? [],
          application_commands: [],
          integrations: [],
          threads: [],
          webhooks: [],
          guild_scheduled_events: [],
        },
      };
    }
    if (parts[0] === 'applications' && parts[2] === 'commands' && req.method === 'PUT') {
      return {
        status: 200,
        body: (req.body as object[]).map((c) => ({
          id: nextSnowflake(),
          application_id: parts[1],
          version: '1',
          ...c,
        })),
      };
    }
    return { status: 404, body: { code: 0, message: '404: Not Found' } };
  });

  return {
    apiBase: server.url,
    calls,
    rulesOf: (guildId: string) => rules.get(guildId) ?? [],
    /** The names of the guild's enabled keyword rules whose keywords match a message (regex patterns and allow lists are not run here). */
    keywordRulesMatching: (guildId: string, content: string) =>
      (rules.get(guildId) ?? [])
        .filter((r) => r.enabled && r.trigger_type === 1)
        .filter((r) => (r.trigger_metadata.keyword_filter ?? []).some((k) => keywordMatches(k, content)))
        .map((r) => r.name),
    addAuditEntry: (guildId: string, entry: APIAuditLogEntry) =>
      auditLog.set(guildId, [...(auditLog.get(guildId) ?? []), entry]),
    rateLimitNext: (path: RegExp, retryAfter: number) => rateLimits.push({ path, retryAfter }),
    reset: () => {
      calls.length = 0;
    },
    close: server.close,
  };
}
