/**
 * Known phishing domains in Discord's AutoMod: a guild bound through signed interactions gets a keyword
 * rule of the deployment's phishing list (read from the table, written here by the real refresh from a
 * stand-in of the list's public file), within AutoMod's limits, switched by the phishing rule. The
 * recording Discord stand-in refuses bodies past Discord's limits and matches keywords as Discord
 * documents it. Domains are invented here.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTOMOD_LIMITS } from '#shared/platforms/discord/automod';
import { forgetPhishingList } from '#shared/domain/moderation/phishingLists';
import { refreshPhishingList } from '#shared/domain/moderation/phishingListRefresh';
import { startTestApi } from '#test/support/api';
import { nextSnowflake, startDiscordStandIn } from '#bin/standIns/discordStandIn';
import { useOwnTable } from '#test/support/ownTable';
import { inventedList, startPhishingListStandIn } from '#test/support/phishingListStandIn';

const BOT = 'discord-bot-token';
const discord = await startDiscordStandIn(BOT);
const source = await startPhishingListStandIn();
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const VARIABLES = {
  DISCORD_APPLICATION_ID: '123456789012345678',
  DISCORD_PUBLIC_KEY: publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex'),
  DISCORD_BOT_TOKEN: BOT,
  DISCORD_API_BASE: discord.apiBase,
  PHISHING_LIST_URL: source.url,
  // Each sync reads the list as it is now.
  PHISHING_LIST_CACHE_SECONDS: '0',
};
const saved = Object.fromEntries(Object.keys(VARIABLES).map((name) => [name, process.env[name]]));
Object.assign(process.env, VARIABLES);
// The list is one per deployment: this file's own table keeps it from other files' verdicts.
await useOwnTable('outreach-discord-phishing');
const api = await startTestApi();
afterAll(async () => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  await discord.close();
  await source.close();
});
beforeEach(() => {
  discord.reset();
  forgetPhishingList();
});

const BASE = '/integrations/moderation';
const PHISHING_RULE = 'Outreach · Phishing domains';
const settle = () => api.ports.queue.drained();

async function activatedGuild(body: object = {}) {
  const { key } = await api.newUser({ credits: 5000 });
  const community = (
    await api.call('POST', `${BASE}/communities`, {
      key,
      body: { name: 'Guild', project_name: 'Acme', type: 'discord', ...body },
    })
  ).body;
  const guild = nextSnowflake();
  const interaction = {
    id: nextSnowflake(),
    application_id: VARIABLES.DISCORD_APPLICATION_ID,
    type: 2,
    token: 'itoken',
    version: 1,
    guild_id: guild,
    channel_id: '900',
    member: { user: { id: '42', username: 'owner' }, permissions: String(1 << 5), roles: [] },
    data: {
      id: '1',
      name: 'activate',
      type: 1,
      options: [{ name: 'token', type: 3, value: community.activation_token }],
    },
  };
  const raw = JSON.stringify(interaction);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const res = await api.call('POST', `${BASE}/discord/interactions`, {
    rawBody: raw,
    headers: {
      'content-type': 'application/json',
      'x-signature-ed25519': sign(null, Buffer.from(timestamp + raw), privateKey).toString('hex'),
      'x-signature-timestamp': timestamp,
    },
  });
  expect(res.body.data.content).toContain('Moderation is on');
  await settle();
  return { key, community, guild };
}
const phishingRuleOf = (guild: string) => discord.rulesOf(guild).find((r) => r.name === PHISHING_RULE);

describe('Discord AutoMod and the phishing list', () => {
  it('a deployment without a list writes no phishing rule (an empty keyword rule would match nothing)', async () => {
    const { guild } = await activatedGuild();
    expect(discord.rulesOf(guild).map((r) => r.name)).not.toContain(PHISHING_RULE);
    expect(discord.rulesOf(guild)).toHaveLength(6);
  });

  it('with a list, activation writes a severe keyword rule of its domains that matches them anywhere in a message', async () => {
    source.serve(
      inventedList({
        blacklist: ['claim-drop.test', 'wallet.claim-drop.test', 'airdrop-acme.test', 'mint.example.co.uk'],
        whitelist: [],
        padTo: 30,
      }),
    );
    expect(await refreshPhishingList({ minBlocked: 10 })).toMatchObject({ outcome: 'written', blocked: 30 });
    const { guild } = await activatedGuild({ whitelisted_external_role_ids: ['555000111'] });
    const posted = discord.calls.filter((c) => c.method === 'POST' && c.body?.name === PHISHING_RULE);
    expect(posted).toHaveLength(1);
    const rule = posted[0].body;
    expect(rule).toMatchObject({
      trigger_type: 1,
      event_type: 1,
      enabled: true,
      exempt_roles: ['555000111'],
      actions: [
        { type: 1, metadata: { custom_message: 'Blocked by the community moderation rules.' } },
        { type: 3, metadata: { duration_seconds: 3600 } },
      ],
    });
    // The broadest listed form of each domain, in list order, as an anywhere keyword.
    expect(rule.trigger_metadata.keyword_filter.slice(0, 4)).toEqual([
      '*claim-drop.test*',
      '*airdrop-acme.test*',
      '*mint.example.co.uk*',
      '*lure-0-pad.test*',
    ]);
    expect(rule.trigger_metadata.keyword_filter).toHaveLength(29);
    expect(discord.rulesOf(guild)).toHaveLength(7);

    const blockedBy = (content: string) => discord.keywordRulesMatching(guild, content);
    expect(blockedBy('claim yours at https://wallet.claim-drop.test/connect today')).toEqual([PHISHING_RULE]);
    expect(blockedBy('AIRDROP-ACME.TEST is live')).toEqual([PHISHING_RULE]);
    expect(blockedBy('see mint.example.co.uk/free')).toEqual([PHISHING_RULE]);
    expect(blockedBy('the docs are at https://acme-swap.test/docs')).toEqual([]);
  });

  it('stays within AutoMod limits with a long list: 1,000 keywords of at most 60 characters, too long domains left out', async () => {
    const long = `${'a'.repeat(50)}-lure.test`;
    source.serve(inventedList({ blacklist: [long, 'first-lure.test'], whitelist: [], padTo: 1_500 }));
    expect(await refreshPhishingList({ minBlocked: 10 })).toMatchObject({ outcome: 'written', blocked: 1_500 });
    const { guild } = await activatedGuild();
    const keywords = phishingRuleOf(guild)!.trigger_metadata.keyword_filter!;
    expect(keywords).toHaveLength(AUTOMOD_LIMITS.keywords);
    expect(Math.max(...keywords.map((k) => k.length))).toBeLessThanOrEqual(AUTOMOD_LIMITS.keywordLength);
    expect(keywords[0]).toBe('*first-lure.test*');
    expect(keywords).not.toContain(`*${long}*`);
    // The stand-in refuses (and does not keep) a body past Discord's limits, as Discord does: every rule was kept.
    expect(discord.rulesOf(guild)).toHaveLength(7);
  });

  it("follows the phishing rule; the community's allowed and official domains are never its keywords", async () => {
    // At least half the list in use (1,500 domains), or the refresh would refuse it.
    source.serve(inventedList({ blacklist: ['acme-partner.test', 'drain-acme.test'], whitelist: [], padTo: 800 }));
    expect(await refreshPhishingList({ minBlocked: 10 })).toMatchObject({ outcome: 'written', blocked: 800 });
    const { key, community, guild } = await activatedGuild();
    expect(phishingRuleOf(guild)!.trigger_metadata.keyword_filter).toContain('*acme-partner.test*');
    discord.reset();
    await api.call('PUT', `${BASE}/communities/${community.id}/rules`, {
      key,
      body: {
        rules: { phishing: { enabled: false } },
        link_allowlist: ['acme-partner.test'],
        official_domains: ['drain-acme.test'],
      },
    });
    await settle();
    const patched = discord.calls.find((c) => c.method === 'PATCH' && c.body?.name === PHISHING_RULE)!;
    expect(patched.body.enabled).toBe(false);
    expect(patched.body.trigger_metadata.keyword_filter).not.toContain('*acme-partner.test*');
    expect(patched.body.trigger_metadata.keyword_filter).not.toContain('*drain-acme.test*');
    expect(patched.body.trigger_metadata.allow_list).toEqual(['drain-acme.test', 'acme-partner.test']);
    expect(discord.keywordRulesMatching(guild, 'go to drain-acme.test')).toEqual([]);
    expect(discord.keywordRulesMatching(guild, 'go to acme-partner.test')).toEqual([]);
  });
});
