/**
 * Discord end to end: signed interactions posted as Discord would (Ed25519 keys made here), the real
 * REST adapter pointed at the recording stand-in, and the exact AutoMod rule bodies asserted.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { renewOnceDue } from '#test/support/communityRecord';
import { useOwnTable } from '#test/support/ownTable';
import { nextSnowflake, startDiscordStandIn } from '#bin/standIns/discordStandIn';
import { DEFAULT_RULES } from '#shared/domain/moderation/rules';
import { WebhookReceiver } from '#test/support/webhookReceiver';
import { losingQueue } from '#test/support/losingQueue';
import { installPorts } from '#shared/adapters/ports';
import { ManualClock, systemClock } from '#shared/adapters/clock';
import { requeueDueAutomodSyncs } from '#shared/platforms/discord/automod';
import { PLATFORM_CORE } from '#shared/domain/moderation/platformCore';
import { grantCredits } from '#shared/domain/credits/credits';
import { uuidv7 } from '#shared/ids';

const BOT = 'discord-bot-token';
const discord = await startDiscordStandIn(BOT);
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const PUBLIC_HEX = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
const saved = { ...process.env };
Object.assign(process.env, {
  DISCORD_APPLICATION_ID: '123456789012345678',
  DISCORD_PUBLIC_KEY: PUBLIC_HEX,
  DISCORD_BOT_TOKEN: BOT,
  DISCORD_API_BASE: discord.apiBase,
});
// The AutoMod sync sweep it runs sends every sync of its table that is due: other files' too on the shared table.
await useOwnTable('outreach-discord');
const api = await startTestApi();
afterAll(async () => {
  for (const name of ['DISCORD_APPLICATION_ID', 'DISCORD_PUBLIC_KEY', 'DISCORD_BOT_TOKEN', 'DISCORD_API_BASE']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await discord.close();
  await receiver.stop();
});
const receiver = await new WebhookReceiver().start();
beforeEach(() => discord.reset());

const BASE = '/integrations/moderation';
const MANAGE_GUILD = String(1 << 5);

function signed(body: object, options: { timestamp?: string; key?: typeof privateKey } = {}) {
  const raw = JSON.stringify(body);
  const timestamp = options.timestamp ?? String(Math.floor(Date.now() / 1000));
  const signature = sign(null, Buffer.from(timestamp + raw), options.key ?? privateKey).toString('hex');
  return {
    rawBody: raw,
    headers: {
      'content-type': 'application/json',
      'x-signature-ed25519': signature,
      'x-signature-timestamp': timestamp,
    },
  };
}
const interact = (body: object, options?: Parameters<typeof signed>[1]) =>
  api.call('POST', `${BASE}/discord/interactions`, signed(body, options));
const command = (
  guildId: string,
  name: string,
  options: object[] = [],
  permissions = MANAGE_GUILD,
  channelId = '900',
) => ({
  id: nextSnowflake(),
  application_id: '123456789012345678',
  type: 2,
  token: 'itoken',
  version: 1,
  guild_id: guildId,
  channel_id: channelId,
  member: { user: { id: '42', username: 'owner' }, permissions, roles: [] },
  data: { id: '1', name, type: 1, options },
});
const settle = () => api.ports.queue.drained();

async function discordCommunity(extra: object = {}) {
  const { key } = await api.newUser({ credits: 5000 });
  const community = (
    await api.call('POST', `${BASE}/communities`, {
      key,
      body: {
        name: 'Guild',
        project_name: 'Acme',
        type: 'discord',
        whitelisted_external_role_ids: ['555000111'],
        ...extra,
      },
    })
  ).body;
  return { key, community };
}
async function activated() {
  const c = await discordCommunity();
  const guild = nextSnowflake();
  const res = await interact(
    command(guild, 'activate', [{ name: 'token', type: 3, value: c.community.activation_token }]),
  );
  expect(res.body.data.content).toContain('Moderation is on');
  await settle();
  discord.reset();
  return { ...c, guild };
}

const ruleCalls = (guild: string) =>
  discord.calls.filter((c) => c.path.startsWith(`/guilds/${guild}/auto-moderation/rules`));

describe('Discord interactions', () => {
  it('PING is answered with PONG when signed', async () => {
    const res = await interact({ id: '1', application_id: '1', type: 1, token: 't', version: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 1 });
  });

  it('a bad, missing or stale signature is 401', async () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    expect((await interact({ type: 1 }, { key: other })).status).toBe(401);
    expect((await interact({ type: 1 }, { timestamp: String(Math.floor(Date.now() / 1000) - 3600) })).status).toBe(401);
    const noHeaders = await api.call('POST', `${BASE}/discord/interactions`, {
      rawBody: '{"type":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(noHeaders.status).toBe(401);
    expect(noHeaders.body.error.code).toBe('unauthorized');
    // The body is what was signed: changing one byte breaks it.
    const good = signed({ type: 1 });
    expect(
      (await api.call('POST', `${BASE}/discord/interactions`, { ...good, rawBody: good.rawBody.replace('1', '2') }))
        .status,
    ).toBe(401);
    expect(discord.calls).toEqual([]);
  });

  it('a Discord community carries the bot invite as install_url', async () => {
    const { community } = await discordCommunity();
    const url = new URL(community.install_url);
    expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize');
    expect(url.searchParams.get('client_id')).toBe('123456789012345678');
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    expect(BigInt(url.searchParams.get('permissions')!) & (1n << 5n)).toBe(1n << 5n);
    const { community: reddit } = await (async () => {
      const { key } = await api.newUser({ credits: 5000 });
      return {
        community: (
          await api.call('POST', `${BASE}/communities`, { key, body: { name: 'R', project_name: 'P', type: 'reddit' } })
        ).body,
      };
    })();
    expect(reddit.install_url).toBeNull();
  });

  it('/activate needs Manage Server and the right token; then it binds the guild and writes the AutoMod rules', async () => {
    const { key, community } = await discordCommunity();
    const guild = nextSnowflake();
    const token = [{ name: 'token', type: 3, value: community.activation_token }];
    expect((await interact(command(guild, 'activate', token, '0'))).body).toEqual({
      type: 4,
      data: { content: 'You need the Manage Server permission to do this.', flags: 64 },
    });
    expect(
      (await interact(command(guild, 'activate', [{ name: 'token', type: 3, value: 'wrong' }]))).body.data.content,
    ).toBe(
      'This activation token is not valid for a Discord community (or was used already: its owner can issue a fresh one).',
    );
    const res = await interact(command(guild, 'activate', token));
    expect(res.body).toEqual({
      type: 4,
      data: { content: 'Moderation is on for this server: its AutoMod rules are being written now.', flags: 64 },
    });
    await settle();

    const calls = ruleCalls(guild);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET /guilds/${guild}/auto-moderation/rules`,
      ...Array(6).fill(`POST /guilds/${guild}/auto-moderation/rules`),
    ]);
    const posted = calls.slice(1).map((c) => c.body);
    expect(posted.map((b) => [b.name, b.trigger_type, b.enabled])).toEqual([
      ['Outreach · Scam phrases', 1, true],
      ['Outreach · Invite links', 1, true],
      ['Outreach · Links', 1, true],
      ['Outreach · Blocked words', 1, true],
      ['Outreach · Mention spam', 5, true],
      ['Outreach · Spam', 3, true],
    ]);
    for (const body of posted) {
      expect(body).toMatchObject({ event_type: 1, exempt_roles: ['555000111'], exempt_channels: [] });
      for (const pattern of body.trigger_metadata?.regex_patterns ?? [])
        expect(pattern.length).toBeLessThanOrEqual(260);
      expect(body.trigger_metadata?.regex_patterns?.length ?? 0).toBeLessThanOrEqual(10);
    }
    const scam = DEFAULT_RULES.rules.find((r) => r.id === 'scam_phrase')!;
    expect(posted[0].trigger_metadata.regex_patterns).toEqual(
      (scam as { phrases: { pattern: RegExp }[] }).phrases.map((p) => `(?i)${p.pattern.source}`),
    );
    // Severe: block and a one-hour timeout (no alert channel yet).
    expect(posted[0].actions).toEqual([
      { type: 1, metadata: { custom_message: 'Blocked by the community moderation rules.' } },
      { type: 3, metadata: { duration_seconds: 3600 } },
    ]);
    expect(posted[3].trigger_metadata).toEqual({
      keyword_filter: ['scamcoin', 'rugpull guaranteed', 'pump group', 'nigerian prince', 'onlyfans'],
    });
    expect(posted[4]).toMatchObject({
      trigger_metadata: { mention_total_limit: 5, mention_raid_protection_enabled: true },
      actions: [{ type: 1, metadata: { custom_message: 'Blocked by the community moderation rules.' } }],
    });
    expect(posted[5].trigger_metadata).toBeUndefined();
    const st = (await api.call('GET', `${BASE}/status?community_id=${community.id}`, { key })).body;
    expect(st.status).toBe('connected');
    expect(st.platform).toMatchObject({ chat_id: guild, configured: true, automod_error: null });
    expect(st.platform.automod_synced_at).not.toBeNull();
    expect(st.platform.unsupported.join(' ')).toMatch(/Welcome messages: .*Gateway/);
  });

  it("/activate sends community.activated to the owner's webhook endpoint once, however often it is repeated", async () => {
    const { key, community } = await discordCommunity();
    const path = `/activated-${Date.now()}`;
    const endpoint = await api.call('POST', '/webhooks/endpoints', {
      key,
      body: { url: receiver.url(path), event_types: ['community.activated'] },
    });
    expect(endpoint.status).toBe(201);
    receiver.expectSecret(path, endpoint.body.secret);
    const token = [{ name: 'token', type: 3, value: community.activation_token }];
    const guild = nextSnowflake();
    expect((await interact(command(guild, 'activate', token))).body.data.content).toContain('Moderation is on');
    await settle();
    const [hit] = await receiver.waitFor(path, 1);
    expect(hit.verified).toMatchObject({
      type: 'community.activated',
      data: { id: community.id, status: 'connected' },
    });
    await interact(command(guild, 'activate', token));
    await interact(command(nextSnowflake(), 'activate', token));
    await settle();
    await api.ports.webhookQueue.settled();
    expect(receiver.at(path)).toHaveLength(1);
  });

  it('/alerts adds the alert action to every rule; a rules change rewrites them (disabled, new words, new limit, allowlist)', async () => {
    const { key, community, guild } = await activated();
    expect((await interact(command(guild, 'alerts', [], MANAGE_GUILD, '777'))).body.data.content).toBe(
      'Moderation alerts will be posted in this channel.',
    );
    await settle();
    const patched = ruleCalls(guild).filter((c) => c.method === 'PATCH');
    expect(patched).toHaveLength(6);
    for (const call of patched) {
      expect(call.body.actions).toContainEqual({ type: 2, metadata: { channel_id: '777' } });
      expect(call.body.trigger_type).toBeUndefined();
    }
    discord.reset();
    await api.call('PUT', `${BASE}/communities/${community.id}/rules`, {
      key,
      body: {
        rules: { link: { enabled: false }, mass_mentions: { max_mentions: 8 } },
        blocked_words: ['MoonBoy'],
        link_allowlist: ['acme.org'],
      },
    });
    await settle();
    const byName = Object.fromEntries(
      ruleCalls(guild)
        .filter((c) => c.method === 'PATCH')
        .map((c) => [c.body.name, c.body]),
    );
    expect(byName['Outreach · Links'].enabled).toBe(false);
    expect(byName['Outreach · Invite links'].trigger_metadata.allow_list).toEqual(['acme.org']);
    expect(byName['Outreach · Blocked words'].trigger_metadata.keyword_filter).toContain('moonboy');
    expect(byName['Outreach · Mention spam'].trigger_metadata.mention_total_limit).toBe(8);
    expect(discord.rulesOf(guild)).toHaveLength(6);
  });

  it("a 429 from Discord postpones the rule sync by Discord's retry_after", async () => {
    const { key, community, guild } = await activated();
    discord.rateLimitNext(new RegExp(`/guilds/${guild}/auto-moderation/rules$`), 1);
    const started = Date.now();
    await api.call('PUT', `${BASE}/communities/${community.id}/rules`, { key, body: { warn_limit: 2 } });
    await settle();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(ruleCalls(guild).map((c) => c.method)).toEqual(['GET', 'GET', ...Array(6).fill('PATCH')]);
  });

  it('a rules change whose AutoMod sync message was lost is written to the guild by the sweep once it is due, once', async () => {
    const { key, community, guild } = await activated();
    const queue = api.ports.queue;
    const syncedAt = async () =>
      (await api.call('GET', `${BASE}/status?community_id=${community.id}`, { key })).body.platform.automod_synced_at;
    const before = await syncedAt();
    installPorts({ queue: losingQueue(queue, 0) });
    try {
      const changed = await api.call('PUT', `${BASE}/communities/${community.id}/rules`, {
        key,
        body: { rules: { link: { enabled: false } } },
      });
      expect(changed.status).toBe(200);
    } finally {
      installPorts({ queue });
    }
    await settle();
    expect(ruleCalls(guild)).toEqual([]);
    expect(await syncedAt()).toBe(before);

    const sweepAt = async (minutesLater: number) => {
      installPorts({ clock: new ManualClock(new Date(Date.now() + minutesLater * 60_000)) });
      try {
        await requeueDueAutomodSyncs(PLATFORM_CORE);
      } finally {
        installPorts({ clock: systemClock });
      }
      await settle();
    };
    await sweepAt(0);
    expect(ruleCalls(guild)).toEqual([]);
    await sweepAt(11);
    expect(ruleCalls(guild).map((c) => c.method)).toContain('GET');
    expect(ruleCalls(guild).filter((c) => c.method !== 'GET').length).toBeGreaterThan(0);
    expect(await syncedAt()).not.toBe(before);
    discord.reset();
    await sweepAt(30);
    expect(ruleCalls(guild)).toEqual([]);
  });

  it('POST /sync pages back through more than 100 new executions to the last one it read, and records each once', async () => {
    const { key, community, guild } = await activated();
    const execution = (action_type: number) =>
      discord.addAuditEntry(guild, {
        id: nextSnowflake(),
        action_type,
        user_id: '3002',
        target_id: '3002',
        options: {
          auto_moderation_rule_name: 'Outreach · Links',
          auto_moderation_rule_trigger_type: '1',
          channel_id: '900',
        },
      } as never);
    execution(143);
    expect(
      (await api.call('POST', `${BASE}/sync`, { key, body: { community_id: community.id } })).body.metrics
        .messages_flagged,
    ).toBe(1);
    for (let i = 0; i < 250; i++) execution(143);
    for (let i = 0; i < 30; i++) execution(145);
    discord.reset();
    const synced = await api.call('POST', `${BASE}/sync`, { key, body: { community_id: community.id } });
    expect(synced.body.metrics).toMatchObject({ messages_flagged: 281, actions: { delete: 251, mute: 30 } });
    const pages = discord.calls.map((c) => [c.query.action_type, c.query.before === undefined ? 'newest' : 'older']);
    expect(pages).toEqual([
      ['143', 'newest'],
      ['143', 'older'],
      ['143', 'older'],
      ['145', 'newest'],
    ]);
    discord.reset();
    const again = await api.call('POST', `${BASE}/sync`, { key, body: { community_id: community.id } });
    expect(again.body.metrics.messages_flagged).toBe(281);
    expect(discord.calls).toHaveLength(2);
  });

  it('POST /sync reads AutoMod executions from the audit log once; undo lifts a timeout', async () => {
    const { key, community, guild } = await activated();
    const blockId = nextSnowflake();
    const timeoutId = nextSnowflake();
    discord.addAuditEntry(guild, {
      id: blockId,
      action_type: 143,
      user_id: '3001',
      target_id: '3001',
      options: {
        auto_moderation_rule_name: 'Outreach · Scam phrases',
        auto_moderation_rule_trigger_type: '1',
        channel_id: '900',
      },
    } as never);
    discord.addAuditEntry(guild, {
      id: timeoutId,
      action_type: 145,
      user_id: '3001',
      target_id: '3001',
      options: {
        auto_moderation_rule_name: 'Outreach · Scam phrases',
        auto_moderation_rule_trigger_type: '1',
        channel_id: '900',
      },
    } as never);
    const first = await api.call('POST', `${BASE}/sync`, { key, body: { community_id: community.id } });
    expect(first.status).toBe(200);
    expect(discord.calls.map((c) => [c.path, c.query.action_type, c.query.before])).toEqual([
      [`/guilds/${guild}/audit-logs`, '143', undefined],
      [`/guilds/${guild}/audit-logs`, '145', undefined],
    ]);
    expect(first.body.metrics).toMatchObject({ messages_flagged: 2, actions: { delete: 1, mute: 1 } });
    expect(
      first.body.audit_logs.map((a: { action: string; user_id: string; rule: string }) => [
        a.action,
        a.user_id,
        a.rule,
      ]),
    ).toEqual([
      ['mute', '3001', 'scam_phrases'],
      ['delete', '3001', 'scam_phrases'],
    ]);
    discord.reset();
    const second = await api.call('POST', `${BASE}/sync`, { key, body: { community_id: community.id } });
    expect(discord.calls.map((c) => [c.query.action_type, c.query.before])).toEqual([
      ['143', undefined],
      ['145', undefined],
    ]);
    expect(second.body.metrics.messages_flagged).toBe(2);

    discord.reset();
    const undo = await api.call(
      'POST',
      `${BASE}/communities/${community.id}/audit-logs/${first.body.audit_logs[0].id}/undo`,
      { key },
    );
    expect(undo.body).toMatchObject({ action: 'mute', delivery: 'delivered' });
    expect(discord.calls).toEqual([
      {
        method: 'PATCH',
        path: `/guilds/${guild}/members/3001`,
        query: {},
        body: { communication_disabled_until: null },
      },
    ]);
    expect(blockId < timeoutId).toBe(true);
  });
});

describe("AutoMod follows the community's monitoring (AutoMod acts by itself: its rules are the service acting)", () => {
  const ours = (guild: string) => discord.rulesOf(guild).filter((r) => r.name.startsWith('Outreach · '));
  /** A bound community whose owner has `credits` left after paying its first period. */
  async function bound(credits: number) {
    const { key, user } = await api.newUser({ credits: 500 + credits });
    const community = (
      await api.call('POST', `${BASE}/communities`, { key, body: { name: 'G', project_name: 'Acme', type: 'discord' } })
    ).body;
    const guild = nextSnowflake();
    await interact(command(guild, 'activate', [{ name: 'token', type: 3, value: community.activation_token }]));
    await settle();
    expect(ours(guild).map((r) => r.enabled)).toEqual(Array(6).fill(true));
    discord.reset();
    return { key, userId: user.id, community, guild };
  }
  /** A call to the Discord stand-in as the server's own staff would make it. */
  const discordRest = async (method: string, route: string, body: object) => {
    const res = await fetch(`${discord.apiBase}${route}`, {
      method,
      headers: { authorization: `Bot ${BOT}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const statusOf = async (key: string, id: string) =>
    (await api.call('GET', `${BASE}/communities/${id}`, { key })).body.status;

  it('a suspended community has its rules switched off in the guild; paid again, they are switched on again', async () => {
    const { key, userId, community, guild } = await bound(0);
    const other = await bound(0);
    expect(await renewOnceDue(userId, community.id)).toBe('suspended');
    await settle();
    expect(await statusOf(key, community.id)).toBe('suspended');
    expect(ours(guild).map((r) => r.enabled)).toEqual(Array(6).fill(false));
    // Another community's guild is not touched.
    expect(ours(other.guild).map((r) => r.enabled)).toEqual(Array(6).fill(true));

    await grantCredits({ userId, grantId: uuidv7(), amount: 500, source: 'test' });
    expect(await renewOnceDue(userId, community.id)).toBe('renewed');
    await settle();
    expect(await statusOf(key, community.id)).toBe('connected');
    expect(ours(guild).map((r) => r.enabled)).toEqual(Array(6).fill(true));
  });

  it('an expired community has its rules switched off in the guild', async () => {
    const { key, userId, community, guild } = await bound(5000);
    await api.call('POST', `${BASE}/communities/${community.id}/auto-renew`, { key, body: { auto_renew: false } });
    expect(await renewOnceDue(userId, community.id)).toBe('expired');
    await settle();
    expect(await statusOf(key, community.id)).toBe('expired');
    expect(ours(guild)).toHaveLength(6);
    expect(ours(guild).map((r) => r.enabled)).toEqual(Array(6).fill(false));
  });

  it("a deleted community's rules are removed from its guild; the guild's own rules stay", async () => {
    const { key, community, guild } = await bound(0);
    const theirs = await discordRest('POST', `/guilds/${guild}/auto-moderation/rules`, {
      name: "The server's own rule",
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: { keyword_filter: ['spoiler'] },
      actions: [{ type: 1 }],
      enabled: true,
    });
    expect(theirs.status).toBe(200);
    expect((await api.call('DELETE', `${BASE}/communities/${community.id}`, { key })).status).toBe(204);
    await settle();
    expect(ours(guild)).toEqual([]);
    expect(discord.rulesOf(guild).map((r) => r.name)).toEqual(["The server's own rule"]);
  });

  it('a community moved to another platform (PUT type) removes its rules from the guild it leaves', async () => {
    const { key, community, guild } = await bound(0);
    expect(
      (await api.call('PUT', `${BASE}/communities/${community.id}`, { key, body: { type: 'telegram' } })).status,
    ).toBe(200);
    await settle();
    expect(ours(guild)).toEqual([]);
  });

  it('a community moved to another platform whose clean-up message was lost has its rules removed by the sweep', async () => {
    const { key, community, guild } = await bound(0);
    const queue = api.ports.queue;
    installPorts({ queue: losingQueue(queue, 0) });
    try {
      expect(
        (await api.call('PUT', `${BASE}/communities/${community.id}`, { key, body: { type: 'telegram' } })).status,
      ).toBe(200);
    } finally {
      installPorts({ queue });
    }
    await settle();
    expect(ours(guild)).not.toEqual([]);
    installPorts({ clock: new ManualClock(new Date(Date.now() + 11 * 60_000)) });
    try {
      await requeueDueAutomodSyncs(PLATFORM_CORE);
    } finally {
      installPorts({ clock: systemClock });
    }
    await settle();
    expect(ours(guild)).toEqual([]);
  });

  it('/activate of an expired community binds nothing; of a suspended one it binds and writes the rules switched off', async () => {
    for (const state of ['expired', 'suspended'] as const) {
      const { key, user } = await api.newUser({ credits: 500 });
      const community = (
        await api.call('POST', `${BASE}/communities`, {
          key,
          body: { name: 'G', project_name: 'Acme', type: 'discord' },
        })
      ).body;
      if (state === 'expired')
        await api.call('POST', `${BASE}/communities/${community.id}/auto-renew`, { key, body: { auto_renew: false } });
      expect(await renewOnceDue(user.id, community.id)).toBe(state);
      const guild = nextSnowflake();
      const res = await interact(
        command(guild, 'activate', [{ name: 'token', type: 3, value: community.activation_token }]),
      );
      await settle();
      if (state === 'expired') {
        expect(res.body.data.content).toBe(
          'This community has expired and moderates nothing any more: provision a new community and use its token.',
        );
        expect(ruleCalls(guild)).toEqual([]);
      } else {
        expect(res.body.data.content).toMatch(
          /^This server is bound, but moderation is off while the community is suspended/,
        );
        expect(ours(guild).map((r) => r.enabled)).toEqual(Array(6).fill(false));
      }
    }
  });

  it("a guild another community has bound since keeps that community's rules when the old one leaves it", async () => {
    const first = await bound(5000);
    await api.call('POST', `${BASE}/communities/${first.community.id}/auto-renew`, {
      key: first.key,
      body: { auto_renew: false },
    });
    expect(await renewOnceDue(first.userId, first.community.id)).toBe('expired');
    await settle();
    // The expired community's guild is free: a new community binds it and writes its rules (on).
    const { key } = await api.newUser({ credits: 500 });
    const second = (
      await api.call('POST', `${BASE}/communities`, {
        key,
        body: { name: 'G2', project_name: 'Acme', type: 'discord' },
      })
    ).body;
    await interact(command(first.guild, 'activate', [{ name: 'token', type: 3, value: second.activation_token }]));
    await settle();
    expect(ours(first.guild).map((r) => r.enabled)).toEqual(Array(6).fill(true));
    // Deleting the expired one does not take the new community's rules away.
    expect((await api.call('DELETE', `${BASE}/communities/${first.community.id}`, { key: first.key })).status).toBe(
      204,
    );
    await settle();
    expect(ours(first.guild).map((r) => r.enabled)).toEqual(Array(6).fill(true));
  });
});
