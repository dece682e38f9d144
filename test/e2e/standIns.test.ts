/**
 * `npm start -- --stand-ins` and `npm run stand-in`: each row of the stand-in table sets the variables
 * it lists, and its sample, built from the session file as `npm run stand-in` builds it, is a request
 * the service accepts as the platform's own, after which the service's calls reach that row's
 * stand-in. Reddit and X are polled: their samples are items written into the stand-in through its
 * control route, read by the minute schedule's poll (run here as the schedule runs it) or at once by
 * POST /sync, and the exact calls the stand-ins then receive are asserted. (The guide's walkthrough (docs/guide)
 * drives the Telegram row end to end.)
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSession, sendSample, startStandIns } from '#bin/standIns/session';
import { STAND_INS, standInFor } from '#bin/standIns/table';
import { SAMPLE_REDDIT, SAMPLE_X } from '#bin/standIns/polled';
import { runPollSchedule } from '#bin/local/runtime';
import { startTestApi } from '#test/support/api';
import { useOwnTable } from '#test/support/ownTable';
import { config, reloadConfig } from '#shared/config/config';

const variables = STAND_INS.flatMap((row) => row.variables);
const saved = Object.fromEntries(variables.map((name) => [name, process.env[name]]));
const dir = mkdtempSync(join(tmpdir(), 'outreach-stand-ins-'));
process.env.STAND_IN_SESSION = join(dir, 'stand-ins.json');
const printed: string[] = [];
const session = await startStandIns((line) => printed.push(line));
// The poll schedule reads every connected Reddit and X community of its table: this file has a table of its own.
await useOwnTable('outreach-stand-ins');
const api = await startTestApi();
session.announce(api.baseUrl);
afterAll(async () => {
  await session.stop();
  for (const name of variables) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  delete process.env.STAND_IN_SESSION;
  rmSync(dir, { recursive: true, force: true });
});

const configOf = (platform: string) => readSession()!.platforms[platform];
const send = (platform: string, text: string, sampleConfig = configOf(platform)) => {
  const request = standInFor(platform)!.sample!(text, sampleConfig);
  return api.call('POST', `${readSession()!.api}${request.path}`, { rawBody: request.body, headers: request.headers });
};
/** The lines printed for calls a stand-in received that contain `what` (printing runs on a short timer). */
const printedFor = async (platform: string, what: string) => {
  const matching = () => printed.filter((l) => l.startsWith(`${platform} stand-in received`) && l.includes(what));
  for (let i = 0; i < 50 && matching().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  return matching();
};

describe('the stand-in table', () => {
  it('sets every variable each row lists, pointing the API bases at local stand-ins; the session file is private', () => {
    for (const name of variables) expect(process.env[name], name).toBeTruthy();
    expect(process.env.TELEGRAM_API_BASE).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(process.env.DISCORD_API_BASE).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(process.env.DISCORD_PUBLIC_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(readSession()!.platforms).sort()).toEqual(STAND_INS.map((r) => r.platform).sort());
    expect(statSync(process.env.STAND_IN_SESSION!).mode & 0o077).toBe(0);
  });

  it('a Discord sample is a signed interaction the service accepts: /activate binds the guild and writes AutoMod rules into the stand-in', {
    timeout: 60_000,
  }, async () => {
    const { key } = await api.newUser({ credits: 5000 });
    const community = (
      await api.call('POST', '/integrations/moderation/communities', {
        key,
        body: { name: 'Guild', project_name: 'Acme', type: 'discord' },
      })
    ).body;
    const answer = await send('discord', `/activate token:${community.activation_token}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.content).toContain('Moderation is on');
    await api.ports.queue.drained();
    expect(
      (await printedFor('discord', 'POST /guilds/1300000000000000001/auto-moderation/rules')).length,
    ).toBeGreaterThan(0);
    // The same sample signed with any other key is refused.
    const other = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(
      (
        await send('discord', `/activate token:${community.activation_token}`, {
          ...configOf('discord'),
          privateKey: other,
        })
      ).status,
    ).toBe(401);
  });

  it('a Telegram sample from the sample group: /activate by its administrator connects the community', {
    timeout: 60_000,
  }, async () => {
    const { key } = await api.newUser({ credits: 5000 });
    const community = (
      await api.call('POST', '/integrations/moderation/communities', {
        key,
        body: { name: 'Group', project_name: 'Acme', type: 'telegram' },
      })
    ).body;
    expect((await send('telegram', `/activate ${community.activation_token}`)).status).toBe(200);
    await api.ports.queue.drained();
    expect(await printedFor('telegram', 'Moderation is on for this group.')).toHaveLength(1);
    const status = (await api.call('GET', `/integrations/moderation/status?community_id=${community.id}`, { key }))
      .body;
    expect(status).toMatchObject({ status: 'connected', platform: { chat_id: '-1001234567890', configured: true } });
    expect((await send('telegram', 'hello', { secret: 'not-the-secret' })).status).toBe(401);
  });

  it('a Crisp sample is a signed plugin hook: /activate from the operator binds the website, a scam from the visitor is deleted', {
    timeout: 60_000,
  }, async () => {
    const { key } = await api.newUser({ credits: 5000 });
    const community = (
      await api.call('POST', '/integrations/moderation/communities', {
        key,
        body: { name: 'Site', project_name: 'Acme', type: 'crisp' },
      })
    ).body;
    expect((await send('crisp', `/activate ${community.activation_token}`)).status).toBe(200);
    await api.ports.queue.drained();
    const status = (await api.call('GET', `/integrations/moderation/status?community_id=${community.id}`, { key }))
      .body;
    expect(status).toMatchObject({ status: 'connected', platform: { configured: true } });
    expect(
      (await send('crisp', 'Claim your free airdrop now at https://acme-drop.xyz, connect your wallet')).status,
    ).toBe(200);
    await api.ports.queue.drained();
    expect(
      (await printedFor('crisp', 'DELETE /website/sample-website/conversation/session_sample_visitor/message/')).length,
    ).toBeGreaterThan(0);
    expect((await send('crisp', 'hello', { hookSecret: 'not-the-secret' })).status).toBe(401);
  });
});

describe('the polled platforms: a sample is an item in the stand-in, read by the poll', () => {
  const sample = async (platform: string, text: string) => {
    const answer = await sendSample(standInFor(platform)!, text, readSession()!);
    return { status: answer.status, body: JSON.parse(answer.text) };
  };
  const sync = (key: string, communityId: string) =>
    api.call('POST', '/integrations/moderation/sync', { key, body: { community_id: communityId } });
  const community = async (type: string) => {
    const { key } = await api.newUser({ credits: 5000 });
    const created = await api.call('POST', '/integrations/moderation/communities', {
      key,
      body: { name: `Acme on ${type}`, project_name: 'Acme', type },
    });
    expect(created.status).toBe(201);
    return { key, community: created.body };
  };
  /** The calls a stand-in received from the `from`-th on, as printed. */
  const callsFrom = (platform: string, from: number) =>
    session
      .recorded(platform)
      .slice(from)
      .map((c) => [c.method, c.path, c.body]);

  it('Reddit: /activate is the moderator’s private message (the bot accepts the invitation), a scam submission is removed on the minute poll', {
    timeout: 60_000,
  }, async () => {
    const { key, community: c } = await community('reddit');
    const sub = SAMPLE_REDDIT.subreddit;
    const activation = await sample('reddit', `/activate ${c.activation_token}`);
    expect(activation).toMatchObject({
      status: 201,
      body: { from: SAMPLE_REDDIT.moderator, to: SAMPLE_REDDIT.bot, body: `/activate ${c.activation_token} r/${sub}` },
    });
    const message = activation.body.private_message;
    // As the guide has it: POST /sync reads the bot's inbox at once.
    const synced = await sync(key, c.id);
    expect(synced.body).toMatchObject({ connection_state: 'connected', platform: { chat_id: sub, configured: true } });
    await api.ports.queue.drained();
    expect(callsFrom('reddit', 0)).toEqual([
      ['GET', '/message/unread', { limit: '100', raw_json: '1' }],
      ['GET', `/r/${sub}/about/moderators`, { raw_json: '1' }],
      ['POST', `/r/${sub}/api/accept_moderator_invite`, { api_type: 'json' }],
      [
        'POST',
        '/api/comment',
        {
          api_type: 'json',
          thing_id: message,
          text: `Moderation is on for r/${sub}. New posts and comments are checked every minute.`,
        },
      ],
      ['POST', '/api/read_message', { api_type: 'json', id: message }],
      ['GET', `/r/${sub}/new`, { limit: '100', raw_json: '1' }],
      ['GET', `/r/${sub}/comments`, { limit: '100', raw_json: '1' }],
    ]);

    const before = session.recorded('reddit').length;
    const scam = await sample('reddit', 'Connect your wallet here to claim the bonus');
    expect(scam).toMatchObject({ status: 201, body: { subreddit: sub, author: SAMPLE_REDDIT.member } });
    await runPollSchedule();
    await api.ports.queue.drained();
    // The poll reads the inbox once and both listings; the scam (a new account's first item) is a mute:
    // removed as spam, and the moderators alerted by modmail (two deliveries, in either order).
    // The schedule queues the inbox (the operator's message) and the subreddit (its shard's) as two
    // messages that the worker runs at once, as separate invocations do in AWS: the inbox read may arrive
    // before, between or after the listings. Only the shard's own calls have an order: its listings one
    // after the other, and its deliveries planned once both were read.
    const polled = callsFrom('reddit', before);
    const isInboxRead = ([, path]: unknown[]) => path === '/message/unread';
    expect(polled.filter(isInboxRead)).toEqual([['GET', '/message/unread', { limit: '100', raw_json: '1' }]]);
    const shard = polled.filter((call) => !isInboxRead(call));
    expect(shard.slice(0, 2)).toEqual([
      ['GET', `/r/${sub}/new`, { limit: '100', raw_json: '1' }],
      ['GET', `/r/${sub}/comments`, { limit: '100', raw_json: '1' }],
    ]);
    expect(shard.slice(2)).toHaveLength(2);
    expect(shard.slice(2)).toEqual(
      expect.arrayContaining([
        ['POST', '/api/remove', { api_type: 'json', id: scam.body.submission, spam: 'true' }],
        [
          'POST',
          '/api/mod/conversations',
          {
            api_type: 'json',
            srName: sub,
            subject: `Moderation: mute applied to ${SAMPLE_REDDIT.member}`,
            body: `Moderation: mute applied to ${SAMPLE_REDDIT.member}`,
            isAuthorHidden: 'false',
          },
        ],
      ]),
    );
    // And the server prints it as it arrives.
    const removal = await printedFor('reddit', 'POST /api/remove ');
    expect(removal).toHaveLength(1);
    expect(removal[0]).toContain(`"id":"${scam.body.submission}"`);
  });

  it('X: the authorize link opened in a browser signed in as the sample account connects it, a scam reply is hidden on the minute poll', {
    timeout: 60_000,
  }, async () => {
    const { key, community: c } = await community('x');
    expect((await sample('x', `/activate ${c.id}`)).status).toBe(400);
    // What `curl -sL "$authorize_url"` does: X's consent page redirects to our callback, which connects.
    const page = await fetch(c.authorize_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`@${SAMPLE_X.account.username} is now moderated by`);
    const status = (await api.call('GET', `/integrations/moderation/status?community_id=${c.id}`, { key })).body;
    expect(status).toMatchObject({ status: 'connected' });

    const before = session.recorded('x').length;
    const scam = await sample('x', 'Connect your wallet here to claim the bonus');
    expect(scam).toMatchObject({
      status: 201,
      body: { to: SAMPLE_X.account.username, author: SAMPLE_X.replier.username },
    });
    await runPollSchedule();
    await api.ports.queue.drained();
    // The poll searches the account's replies; the scam is a mute on X: the reply hidden, its author muted.
    expect(callsFrom('x', before)).toEqual([
      [
        'GET',
        '/2/tweets/search/recent',
        {
          query: `to:${SAMPLE_X.account.username} is:reply -from:${SAMPLE_X.account.username}`,
          max_results: '100',
          expansions: 'author_id',
          'tweet.fields': 'author_id,created_at,conversation_id',
        },
      ],
      ['PUT', `/2/tweets/${scam.body.reply}/hidden`, { hidden: true }],
      ['POST', `/2/users/${SAMPLE_X.account.id}/muting`, { target_user_id: SAMPLE_X.replier.id }],
    ]);
    expect(await printedFor('x', `PUT /2/tweets/${scam.body.reply}/hidden {"hidden":true}`)).toHaveLength(1);
  });
});

describe('syncs against the stand-ins', () => {
  it('are not spaced unless MODERATION_SYNC_INTERVAL_SECONDS says so: a walkthrough syncs one community twice in a row', async () => {
    const kept = Object.fromEntries(
      [...variables, 'MODERATION_SYNC_INTERVAL_SECONDS'].map((name) => [name, process.env[name]]),
    );
    const startWith = async (interval: string | undefined) => {
      if (interval === undefined) delete process.env.MODERATION_SYNC_INTERVAL_SECONDS;
      else process.env.MODERATION_SYNC_INTERVAL_SECONDS = interval;
      const other = await startStandIns(() => undefined);
      const seen = config().moderationSyncIntervalSeconds;
      await other.stop();
      return seen;
    };
    try {
      expect(await startWith(undefined)).toBe(0);
      expect(await startWith('30')).toBe(30);
    } finally {
      for (const [name, value] of Object.entries(kept)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      reloadConfig();
    }
  });
});
