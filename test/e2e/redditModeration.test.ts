/**
 * Reddit end to end: the local API, the real Reddit adapter pointed at the recording stand-in, the
 * bot's inbox and the subreddits' listings read by POST /sync (the minute schedule runs the same
 * poll), and the exact calls asserted.
 */
import { spawn } from 'node:child_process';
import { PLATFORM_CORE } from '#shared/domain/moderation/platformCore';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestApi } from '#test/support/api';
import { renewOnceDue, setCommunityFields } from '#test/support/communityRecord';
import { useOwnTable } from '#test/support/ownTable';
import { startRedditStandIn } from '#bin/standIns/redditStandIn';
import { forgetRedditTokens } from '#shared/platforms/reddit/api';
import { observeRedditRate } from '#shared/platforms/reddit/budgetRepo';
import { runPoll } from '#shared/domain/moderation/polling';
import { fanOutPolls } from '#shared/domain/moderation/pollFanOut';
import { listPolledCommunities } from '#shared/store/pollingRepo';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from '#shared/store/client';
import { redditRateBudgetKey } from '#shared/store/keys';
import { readRedditInbox } from '#shared/platforms/reddit/inbox';
import { redditBot } from '#shared/platforms/reddit/client';
import { reloadConfig } from '#shared/config/config';
import { claimSyncPoll } from '#shared/store/syncPollsRepo';
import { expireAtPeriodEndItem, getCommunity, suspendForNonPaymentItem } from '#shared/store/communitiesRepo';
import { writeTogether } from '#shared/store/transactions';
import { claimActivationReply, releaseActivationReply } from '#shared/platforms/reddit/activationRepliesRepo';
import { logger } from '#shared/observability/logger';
import { postponeDelivery } from '#shared/store/platformCallsRepo';
import { decisionDeliveryId, runDelivery, scheduleDelivery } from '#shared/domain/moderation/platformCallRunner';
import { REDDIT_DECISION_CALLS, redditAlertCall } from '#shared/platforms/reddit/calls';
import { bindModeratedPlace } from '#shared/domain/moderation/binding';

const BOT = 'OutreachModBot';
const CLIENT_ID = `reddit-e2e-${randomUUID().slice(0, 8)}`;
const reddit = await startRedditStandIn({
  clientId: CLIENT_ID,
  clientSecret: 'app-secret',
  refreshToken: 'bot-refresh',
  botUsername: BOT,
});
const ENV = {
  REDDIT_CLIENT_ID: CLIENT_ID,
  REDDIT_CLIENT_SECRET: 'app-secret',
  REDDIT_REFRESH_TOKEN: 'bot-refresh',
  REDDIT_USERNAME: BOT,
  REDDIT_USER_AGENT: 'server:outreach-test:1.0 (by /u/OutreachModBot)',
  REDDIT_API_BASE: reddit.apiBase,
  REDDIT_AUTH_BASE: reddit.authBase,
};
const saved = { ...process.env };
Object.assign(process.env, ENV);
// The poll schedule it runs polls every polled community of its table: other files' too on the shared table.
await useOwnTable('outreach-reddit');
const api = await startTestApi();
afterAll(async () => {
  for (const name of Object.keys(ENV)) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await reddit.close();
});
/** The rate limit a delivery waits out is over: its next run sends (the queue's own retry comes minutes later). */
const waitIsOver = (communityId: string, eventId: string) =>
  postponeDelivery(
    communityId,
    decisionDeliveryId(eventId),
    new Date(Date.now() - 1000).toISOString(),
    new Date(Date.now() + 600_000).toISOString(),
  );
/** Each test starts with Reddit's full window and no budget of ours (the first call opens one). */
const clearBudget = () => ddb().send(new DeleteCommand({ TableName: table(), Key: redditRateBudgetKey(CLIENT_ID) }));
beforeEach(async () => {
  reddit.reset();
  reddit.setRate(600, 600);
  await clearBudget();
});

const BASE = '/integrations/moderation';
const SCAM = 'Free airdrop! Claim now at the link';
// Not drained(): a rate-limited delivery waits in the queue for minutes on purpose.
const settle = () => api.ports.queue.settled();
const sync = (key: string, communityId: string) =>
  api.call('POST', `${BASE}/sync`, { key, body: { community_id: communityId } });
const status = async (key: string, communityId: string) =>
  (await api.call('GET', `${BASE}/status?community_id=${communityId}&include_logs=50`, { key })).body;
const calls = () => reddit.calls.map((c) => [c.method, c.path, c.method === 'GET' ? c.query : c.form]);
const writes = () => reddit.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.form]);
let subSeq = 0;
const newSub = () => `acme_${Date.now().toString(36)}_${++subSeq}`;

async function redditCommunity() {
  const { key, user } = await api.newUser({ credits: 5000 });
  const community = (
    await api.call('POST', `${BASE}/communities`, {
      key,
      body: {
        name: 'Acme sub',
        project_name: 'Acme',
        type: 'reddit',
        alert_channel_message_template: '{action}: u/{username}',
      },
    })
  ).body;
  return { key, community, userId: user.id };
}
const shardOf = (c: { userId: string; community: { id: string }; sub: string }) => ({
  kind: 'moderation.poll' as const,
  platform: 'reddit',
  communities: [{ user_id: c.userId, community_id: c.community.id, external_id: c.sub.toLowerCase() }],
});

/** A bound subreddit: moderator alice invited the bot and sent the activation message. */
async function activated(options: { sub?: string } = {}) {
  const c = await redditCommunity();
  const sub = options.sub ?? newSub();
  reddit.addSubreddit(sub, ['alice']);
  reddit.privateMessage('alice', `/activate ${c.community.activation_token} r/${sub}`);
  const res = await sync(c.key, c.community.id);
  expect(res.body.connection_state).toBe('connected');
  await settle();
  reddit.reset();
  return { ...c, sub };
}

describe('Reddit activation from the inbox', () => {
  it('a suspended community is bound but told moderation is off; an expired one accepts no invitation', async () => {
    for (const [state, item] of [
      ['suspended', suspendForNonPaymentItem],
      ['expired', expireAtPeriodEndItem],
    ] as const) {
      const { key, community, userId } = await redditCommunity();
      if (state === 'expired')
        await api.call('POST', `${BASE}/communities/${community.id}/auto-renew`, { key, body: { auto_renew: false } });
      const stored = await getCommunity(userId, community.id, true);
      // The renewal sweep's own write, for this one community.
      await writeTogether({ community: item(stored!, new Date().toISOString()) });
      const sub = newSub();
      reddit.addSubreddit(sub, ['alice']);
      const message = reddit.privateMessage('alice', `/activate ${community.activation_token} r/${sub}`);
      expect(await readRedditInbox((await redditBot())!, PLATFORM_CORE)).toMatchObject({ read: 1 });
      const replies = reddit.calls.filter((c) => c.path === '/api/comment').map((c) => c.form.text);
      if (state === 'suspended') {
        expect(replies).toEqual([
          `r/${sub} is bound, but moderation is off while the community is suspended (its renewal is unpaid): it starts once the renewal is paid.`,
        ]);
        expect((await status(key, community.id)).platform.chat_id).toBe(sub.toLowerCase());
      } else {
        expect(replies).toEqual([
          'This community has expired and moderates nothing any more: provision a new community and use its token.',
        ]);
        expect(reddit.calls.filter((c) => c.path.endsWith('/accept_moderator_invite'))).toEqual([]);
        expect((await status(key, community.id)).platform.chat_id).toBeNull();
      }
      expect(reddit.calls.filter((c) => c.path === '/api/read_message').map((c) => c.form.id)).toEqual([message]);
      reddit.reset();
    }
  });

  it('a moderator activates: the invitation is accepted, the subreddit bound, the message answered and marked read', async () => {
    const { key, community } = await redditCommunity();
    expect(community).toMatchObject({ community_type: 'reddit', status: 'pending_activation' });
    const sub = newSub();
    reddit.addSubreddit(sub, ['Alice', 'bob']);
    const message = reddit.privateMessage('alice', `/activate ${community.activation_token} r/${sub}`);
    const res = await sync(key, community.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      connection_state: 'connected',
      status: 'connected',
      platform: { chat_id: sub.toLowerCase(), configured: true },
    });
    expect(calls()).toEqual([
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
      // Connected now: the same sync reads the subreddit (one page each, nothing to act on).
      ['GET', `/r/${sub.toLowerCase()}/new`, { limit: '100', raw_json: '1' }],
      ['GET', `/r/${sub.toLowerCase()}/comments`, { limit: '100', raw_json: '1' }],
    ]);
    expect(reddit.moderatorsOf(sub)).toContain(BOT);
    expect(reddit.unreadCount()).toBe(0);
    expect(
      reddit.calls.every((c) => c.authorization?.startsWith('bearer ') && c.userAgent === ENV.REDDIT_USER_AGENT),
    ).toBe(true);
    expect((await listPolledCommunities('reddit')).map((p) => p.communityId)).toContain(community.id);
  });

  it("replies to the bot's comments are marked read with the messages, so the unread listing does not fill up", async () => {
    const { community } = await redditCommunity();
    const sub = newSub();
    reddit.addSubreddit(sub, ['alice']);
    const reply = reddit.commentReply(sub, 'someone', 'why was my post removed?');
    const message = reddit.privateMessage('alice', `/activate ${community.activation_token} r/${sub}`);
    expect(await readRedditInbox((await redditBot())!, PLATFORM_CORE)).toMatchObject({ read: 1, activated: 1 });
    const marked = reddit.calls.filter((c) => c.path === '/api/read_message').map((c) => c.form.id.split(','));
    expect(marked).toEqual([[reply, message]]);
    expect(reddit.unreadCount()).toBe(0);
  });

  it('two reads of one activation message at once (the minute and a POST /sync) confirm once, and never tell the moderator to invite a bot that is already in', async () => {
    const { key, community } = await redditCommunity();
    const sub = newSub();
    reddit.addSubreddit(sub, ['alice']);
    const message = reddit.privateMessage('alice', `/activate ${community.activation_token} r/${sub}`);
    // Both reads see the message unread: neither marks it read before the other has it. (In the whole
    // file the second sync sometimes reads nothing at all, so the gather gives up after a few seconds
    // and the assertions below are the outcome's, whichever way the two met.)
    reddit.gatherNext(/^\/message\/unread$/, 2);
    // Which of the two answers shows the community connected depends on who read the inbox first.
    const answers = await Promise.all([sync(key, community.id), sync(key, community.id)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(reddit.calls.filter((c) => c.path === '/message/unread').length).toBeGreaterThanOrEqual(1);
    expect((await status(key, community.id)).connection_state).toBe('connected');
    // The moderator is told once, whichever read won.
    expect(reddit.calls.filter((c) => c.path === '/api/comment').map((c) => c.form)).toEqual([
      {
        api_type: 'json',
        thing_id: message,
        text: `Moderation is on for r/${sub}. New posts and comments are checked every minute.`,
      },
    ]);
    expect(reddit.moderatorsOf(sub)).toContain(BOT);
    expect(reddit.unreadCount()).toBe(0);
  });

  it('a confirmation Reddit rate-limits stays owed: the next read of the message sends it', async () => {
    const { key, community } = await redditCommunity();
    const sub = newSub();
    reddit.addSubreddit(sub, ['alice']);
    const message = reddit.privateMessage('alice', `/activate ${community.activation_token} r/${sub}`);
    reddit.rateLimitNext(/^\/api\/comment$/, 1);
    expect((await sync(key, community.id)).body.connection_state).toBe('connected');
    expect(reddit.calls.filter((c) => c.path === '/api/comment')).toHaveLength(1);
    expect(reddit.calls.some((c) => c.path === '/api/read_message')).toBe(false);
    // The minute's inbox read, once the window the 429 named is over.
    await clearBudget();
    reddit.reset();
    const report = await readRedditInbox((await redditBot())!, PLATFORM_CORE);
    expect(report).toMatchObject({ activated: 1 });
    expect(writes().filter(([path]) => path !== `/r/${sub}/api/accept_moderator_invite`)).toEqual([
      [
        '/api/comment',
        {
          api_type: 'json',
          thing_id: message,
          text: `Moderation is on for r/${sub}. New posts and comments are checked every minute.`,
        },
      ],
      ['/api/read_message', { api_type: 'json', id: message }],
    ]);
  });

  it('a read that stopped between claiming the confirmation and sending it: the message stays unread until its claim lapses, then the next read sends it', async () => {
    const { community } = await redditCommunity();
    const sub = newSub();
    reddit.addSubreddit(sub, ['alice']);
    const message = reddit.privateMessage('alice', `/activate ${community.activation_token} r/${sub}`);
    const confirmations = () => reddit.calls.filter((c) => c.path === '/api/comment').map((c) => c.form.thing_id);
    // A read claimed the reply just now and is (as far as anyone knows) still sending it.
    expect(await claimActivationReply(community.id, message, Date.now())).toBe('claimed');
    expect(await readRedditInbox((await redditBot())!, PLATFORM_CORE)).toMatchObject({ read: 0, activated: 0 });
    expect(confirmations()).toEqual([]);
    expect(reddit.unreadCount()).toBe(1);
    // That read stopped: two minutes on, its claim has lapsed and the next read sends the reply, once.
    expect(await claimActivationReply(community.id, message, Date.now() - 121_000)).toBe('held');
    await releaseActivationReply(community.id, message);
    expect(await claimActivationReply(community.id, message, Date.now() - 121_000)).toBe('claimed');
    expect(await readRedditInbox((await redditBot())!, PLATFORM_CORE)).toMatchObject({ read: 1, activated: 1 });
    expect(confirmations()).toEqual([message]);
    expect(reddit.unreadCount()).toBe(0);
    expect(await claimActivationReply(community.id, message, Date.now())).toBe('sent');
  });

  it('a message written in Reddit’s rich-text editor activates too: its markdown escapes (r/acme\\_sub) are read as the characters', async () => {
    const { key, community } = await redditCommunity();
    const sub = newSub();
    reddit.addSubreddit(sub, ['alice']);
    const escaped = (text: string) => text.replace(/[_-]/g, (c) => `\\${c}`);
    expect(sub).toContain('_');
    reddit.privateMessage('alice', `/activate ${escaped(community.activation_token)} r/${escaped(sub)}`);
    const res = await sync(key, community.id);
    expect(res.body).toMatchObject({ connection_state: 'connected', platform: { chat_id: sub.toLowerCase() } });
    expect(reddit.calls.filter((c) => c.path === '/api/comment').map((c) => c.form.text)).toEqual([
      `Moderation is on for r/${sub}. New posts and comments are checked every minute.`,
    ]);
  });

  it('an /activate without its subreddit (as on Telegram and Crisp) is answered with the form to send, not ignored', async () => {
    const { key, community } = await redditCommunity();
    const sender = `moderator_${++subSeq}`;
    const message = reddit.privateMessage(sender, `/activate ${community.activation_token}`);
    await sync(key, community.id);
    expect(writes()).toEqual([
      [
        '/api/comment',
        {
          api_type: 'json',
          thing_id: message,
          text: 'To turn moderation on, send `/activate <token> r/<subreddit>`: the activation token of your community, then the subreddit to moderate.',
        },
      ],
      ['/api/read_message', { api_type: 'json', id: message }],
    ]);
    expect((await status(key, community.id)).status).toBe('pending_activation');
  });

  it('a sender who is not a moderator is refused with a reply, and nothing is bound', async () => {
    const { key, community } = await redditCommunity();
    const sub = newSub();
    reddit.addSubreddit(sub, ['alice']);
    const message = reddit.privateMessage('mallory', `/activate ${community.activation_token} r/${sub}`);
    const res = await sync(key, community.id);
    expect(res.body.connection_state).toBe('pending_activation');
    expect(writes()).toEqual([
      [
        '/api/comment',
        { api_type: 'json', thing_id: message, text: `Only a moderator of r/${sub} can turn moderation on there.` },
      ],
      ['/api/read_message', { api_type: 'json', id: message }],
    ]);
    expect(reddit.moderatorsOf(sub)).not.toContain(BOT);
  });

  it('a subreddit already bound to another community is refused', async () => {
    const first = await activated();
    const second = await redditCommunity();
    // A moderator no refusal has been sent to lately (one per sender in ten minutes).
    const owner = `owner_${++subSeq}`;
    reddit.moderatorsOf(first.sub).push(owner);
    const message = reddit.privateMessage(owner, `/activate ${second.community.activation_token} r/${first.sub}`);
    const res = await sync(second.key, second.community.id);
    expect(res.body.connection_state).toBe('pending_activation');
    expect(writes()).toEqual([
      [
        '/api/comment',
        {
          api_type: 'json',
          thing_id: message,
          text: `r/${first.sub} is already moderated by another community of this service. Its owner must delete that community first.`,
        },
      ],
      ['/api/read_message', { api_type: 'json', id: message }],
    ]);
  });

  it('an unknown token is refused; other messages are only marked read', async () => {
    const { key, community } = await redditCommunity();
    const sender = `sender_${++subSeq}`;
    const bad = reddit.privateMessage(sender, '/activate not-a-token r/whatever');
    const chat = reddit.privateMessage(sender, 'hello bot');
    await sync(key, community.id);
    expect(writes()).toEqual([
      [
        '/api/comment',
        { api_type: 'json', thing_id: bad, text: expect.stringContaining('That activation token is not valid.') },
      ],
      ['/api/read_message', { api_type: 'json', id: `${bad},${chat}` }],
    ]);
  });

  it('a sender of unknown tokens is answered once in ten minutes: each answer spends the budget every community polls from', async () => {
    const { key, community } = await redditCommunity();
    const [mallory, bob] = [`mallory_${++subSeq}`, `bob_${++subSeq}`];
    const guesses = ['guess-1', 'guess-2', 'guess-3'].map((t) => reddit.privateMessage(mallory, `/activate ${t} r/x1`));
    const typo = reddit.privateMessage(bob, '/activate typo r/bobsub');
    await sync(key, community.id);
    const answered = reddit.calls.filter((c) => c.path === '/api/comment').map((c) => c.form.thing_id);
    expect(answered).toHaveLength(2);
    expect(answered).toContain(typo);
    expect(guesses.filter((g) => answered.includes(g))).toHaveLength(1);
    // Every message is read, answered or not: none comes back.
    expect(reddit.unreadCount()).toBe(0);
    reddit.reset();
    const again = reddit.privateMessage(mallory, '/activate guess-4 r/x1');
    expect(await readRedditInbox((await redditBot())!, PLATFORM_CORE)).toMatchObject({ read: 1, refused: 1 });
    expect(writes()).toEqual([['/api/read_message', { api_type: 'json', id: again }]]);
  });

  it('every refusal is answered once per sender in ten minutes, and one read checks one of a sender’s messages on Reddit: 40 messages do not spend 80 requests', async () => {
    const { community } = await redditCommunity();
    const sub = newSub();
    reddit.addSubreddit(sub, ['alice']);
    // A customer's own valid token, sent from an account that moderates nothing, over and over.
    const sender = `mallory_${++subSeq}`;
    for (let i = 0; i < 40; i++) reddit.privateMessage(sender, `/activate ${community.activation_token} r/${sub}`);
    const bot = (await redditBot())!;
    const spent = () => ({
      lookups: reddit.calls.filter((c) => c.path.endsWith('/about/moderators')).length,
      replies: reddit.calls.filter((c) => c.path === '/api/comment').length,
    });
    expect(await readRedditInbox(bot, PLATFORM_CORE)).toMatchObject({ refused: 1 });
    expect(spent()).toEqual({ lookups: 1, replies: 1 });
    expect(reddit.unreadCount()).toBe(39);
    // The next read checks the next message; its refusal is not answered again.
    reddit.reset();
    expect(await readRedditInbox(bot, PLATFORM_CORE)).toMatchObject({ refused: 1 });
    expect(spent()).toEqual({ lookups: 1, replies: 0 });
    // A bound subreddit claimed again: refused, and unanswered for a sender answered lately.
    const taken = await activated();
    const owner = `owner_${++subSeq}`;
    reddit.moderatorsOf(taken.sub).push(owner);
    for (const _ of [1, 2]) reddit.privateMessage(owner, `/activate ${community.activation_token} r/${taken.sub}`);
    for (const replies of [1, 0]) {
      reddit.reset();
      await readRedditInbox(bot, PLATFORM_CORE);
      // One of the owner's messages and one of mallory's (unanswered) are checked each read.
      expect(spent()).toEqual({ lookups: 2, replies });
    }
    reddit.markAllRead();
  });

  it('a refusal Reddit rate-limits is not given up: the next read of the message sends it', async () => {
    const { key, community } = await redditCommunity();
    const sender = `typist_${++subSeq}`;
    const typo = reddit.privateMessage(sender, '/activate typo r/somesub');
    reddit.rateLimitNext(/^\/api\/comment$/, 1);
    await sync(key, community.id);
    expect(reddit.calls.some((c) => c.path === '/api/read_message')).toBe(false);
    await clearBudget();
    reddit.reset();
    expect(await readRedditInbox((await redditBot())!, PLATFORM_CORE)).toMatchObject({ read: 1, refused: 1 });
    expect(writes()).toEqual([
      [
        '/api/comment',
        { api_type: 'json', thing_id: typo, text: expect.stringContaining('That activation token is not valid.') },
      ],
      ['/api/read_message', { api_type: 'json', id: typo }],
    ]);
  });
});

describe('Reddit moderation by polling', () => {
  it('spam is removed with the alert to modmail, clean items are left, and the muted author’s later items are removed', async () => {
    const { key, community, sub } = await activated();
    const spam = reddit.post(sub, 'spammer1', SCAM);
    const clean = reddit.post(sub, 'regular', 'Roadmap discussion', 'What do you all think of the Q3 plan?');
    const cleanComment = reddit.comment(sub, 'regular', 'Looks good to me', clean);
    await sync(key, community.id);
    await settle();
    expect(writes()).toEqual(
      expect.arrayContaining([
        ['/api/remove', { api_type: 'json', id: spam, spam: 'true' }],
        [
          '/api/mod/conversations',
          {
            api_type: 'json',
            srName: sub.toLowerCase(),
            subject: 'mute: u/spammer1',
            body: 'mute: u/spammer1',
            isAuthorHidden: 'false',
          },
        ],
      ]),
    );
    expect(writes()).toHaveLength(2);
    expect(writes().flatMap(([, form]) => Object.values(form))).not.toContain(clean);
    expect(writes().flatMap(([, form]) => Object.values(form))).not.toContain(cleanComment);
    const st = await status(key, community.id);
    expect(st.metrics).toMatchObject({ messages_scanned: 3, actions: { mute: 1 } });
    expect(st.audit_logs[0]).toMatchObject({
      event_id: spam,
      user_id: 'spammer1',
      action: 'mute',
      rule: 'scam_phrase',
      delivery: { status: 'delivered', error: null },
    });

    // Muted: a harmless comment of the same author a moment later is removed too.
    reddit.reset();
    const later = reddit.comment(sub, 'spammer1', 'just saying hi', clean);
    await sync(key, community.id);
    await settle();
    expect(writes()).toEqual([['/api/remove', { api_type: 'json', id: later, spam: 'false' }]]);
  });

  it('an author muted by one item of a poll has their later items of the same poll removed too', async () => {
    const { key, community, sub } = await activated();
    const at = Math.floor(Date.now() / 1000);
    const spam = reddit.post(sub, 'spammer12', SCAM, '', { created_utc: at });
    const followUp = reddit.comment(sub, 'spammer12', 'check my profile for details', spam, { created_utc: at + 1 });
    const earlier = reddit.comment(sub, 'spammer12', 'hello everyone', undefined, { created_utc: at - 1 });
    await sync(key, community.id);
    await settle();
    // Two deliveries, in whichever order the queue runs them.
    expect(writes().filter(([path]) => path === '/api/remove')).toEqual(
      expect.arrayContaining([
        ['/api/remove', { api_type: 'json', id: spam, spam: 'true' }],
        // The follow-up is channel promotion in its own right: removed as spam, not only for the mute.
        ['/api/remove', { api_type: 'json', id: followUp, spam: 'true' }],
      ]),
    );
    expect(writes().filter(([path]) => path === '/api/remove')).toHaveLength(2);
    // Written before the muting item: left alone, as it would be by a later poll.
    expect(reddit.item(earlier)?.removed).toBeFalsy();
  });

  it('with warn_limit 2, an offence of an author our mute holds is a mute again, not a warning: alerted and undone as one', async () => {
    const { key, community, sub } = await activated();
    await api.call('PUT', `${BASE}/communities/${community.id}/rules`, { key, body: { warn_limit: 2 } });
    const entryOf = async (id: string) =>
      (await status(key, community.id)).audit_logs.find((l: { event_id: string }) => l.event_id === id);
    const scam = reddit.post(sub, 'spammer18', SCAM);
    await sync(key, community.id);
    await settle();
    expect(await entryOf(scam)).toMatchObject({ action: 'mute' });
    reddit.reset();
    const again = reddit.comment(sub, 'spammer18', 'scamcoin to the moon', scam);
    // Muted within one poll: a scam, then the offence a second later.
    const at = Math.floor(Date.now() / 1000);
    reddit.post(sub, 'spammer19', 'Free airdrop! Claim yours now at the link', '', { created_utc: at });
    const same = reddit.comment(sub, 'spammer19', 'buy scamcoin while you can', scam, { created_utc: at + 1 });
    await sync(key, community.id);
    await settle();
    for (const id of [again, same])
      expect(await entryOf(id)).toMatchObject({ action: 'mute', delivery: { status: 'delivered' } });
    expect(writes()).toEqual(
      expect.arrayContaining([
        ['/api/remove', { api_type: 'json', id: again, spam: 'true' }],
        ['/api/mod/conversations', expect.objectContaining({ subject: 'mute: u/spammer18' })],
      ]),
    );
    expect(writes()).not.toContainEqual([
      '/api/mod/conversations',
      expect.objectContaining({ subject: 'warn: u/spammer18' }),
    ]);
    reddit.reset();
    const undo = await api.call(
      'POST',
      `${BASE}/communities/${community.id}/audit-logs/${(await entryOf(again)).id}/undo`,
      {
        key,
      },
    );
    expect(undo.body).toMatchObject({ action: 'mute', delivery: 'delivered', error: null });
    expect(reddit.item(again)?.approved_by).toBe(BOT);
  });

  it('polling again acts once: items already read are neither re-read for action nor acted on twice', async () => {
    const c = await activated();
    const { key, community, sub } = c;
    const spam = reddit.comment(sub, 'spammer2', SCAM);
    await sync(key, community.id);
    await settle();
    expect(writes().filter(([path]) => path === '/api/remove')).toEqual([
      ['/api/remove', { api_type: 'json', id: spam, spam: 'true' }],
    ]);
    reddit.reset();
    await sync(key, community.id);
    // The schedule's shard and a sync at the same time: still nothing.
    await Promise.all([runPoll(shardOf(c)), sync(key, community.id)]);
    await settle();
    expect(writes()).toEqual([]);
    expect((await status(key, community.id)).metrics.messages_scanned).toBe(1);
  });

  it('a busy minute is read in full: pages follow `after` until an item already read', async () => {
    const { key, community, sub } = await activated();
    const first = reddit.post(sub, 'regular', 'first');
    await sync(key, community.id);
    reddit.reset();
    // Each by its own author: one author's 230 posts in a minute would be a flood of its own.
    const posts = Array.from({ length: 230 }, (_, i) =>
      reddit.post(sub, `member${i}`, `Post number ${i} about the roadmap`),
    );
    const spam = reddit.post(sub, 'spammer3', SCAM);
    await sync(key, community.id);
    await settle();
    const lower = sub.toLowerCase();
    expect(reddit.calls.filter((c) => c.method === 'GET').map((c) => [c.path, c.query.after ?? null])).toEqual([
      [`/r/${lower}/new`, null],
      [`/r/${lower}/new`, posts[131]],
      [`/r/${lower}/new`, posts[31]],
      [`/r/${lower}/comments`, null],
    ]);
    expect(writes().filter(([path]) => path === '/api/remove')).toEqual([
      ['/api/remove', { api_type: 'json', id: spam, spam: 'true' }],
    ]);
    expect((await status(key, community.id)).metrics.messages_scanned).toBe(1 + 230 + 1);
    expect(first).toBeDefined();
  });

  it('a page Reddit answers empty but with an `after` cursor is paged past: the items behind it are read', async () => {
    const { key, community, sub } = await activated();
    reddit.post(sub, 'regular', 'first');
    await sync(key, community.id);
    reddit.reset();
    // 130 new posts; Reddit leaves the newest 100 out of its first page (removed by their authors since).
    const older = Array.from({ length: 29 }, (_, i) => reddit.post(sub, `member${i}`, `Post number ${i}`));
    const spam = reddit.post(sub, 'spammer14', SCAM);
    const newest = Array.from({ length: 100 }, (_, i) => reddit.post(sub, `newer${i}`, `Later post ${i}`));
    reddit.hideFromListings(...newest);
    await sync(key, community.id);
    await settle();
    const lower = sub.toLowerCase();
    expect(reddit.calls.filter((c) => c.method === 'GET').map((c) => [c.path, c.query.after ?? null])).toEqual([
      [`/r/${lower}/new`, null],
      [`/r/${lower}/new`, newest[0]],
      [`/r/${lower}/comments`, null],
    ]);
    expect(writes().filter(([path]) => path === '/api/remove')).toEqual([
      ['/api/remove', { api_type: 'json', id: spam, spam: 'true' }],
    ]);
    expect((await status(key, community.id)).metrics.messages_scanned).toBe(1 + older.length + 1);
  });

  it('a post or comment that starts with /activate is moderated like any other: activation is only a private message to the bot', async () => {
    const { key, community, sub } = await activated();
    const comment = reddit.comment(sub, 'spammer10', '/activate https://t.me/+FreeAirdropClaim');
    const post = reddit.post(sub, 'spammer11', '/activate', 'https://t.me/+FreeAirdropClaim');
    await sync(key, community.id);
    await settle();
    // Each is a new member's Telegram invite (an offence: first a warning), not an activation let through.
    const logs = (await status(key, community.id)).audit_logs;
    expect(
      logs.map((l: { event_id: string; action: string; rule: string }) => [l.event_id, l.action, l.rule]).sort(),
    ).toEqual(
      [
        [comment, 'warn', 'invite_link'],
        [post, 'warn', 'invite_link'],
      ].sort(),
    );
    const warning = "⚠️ Telegram invite from a new member. Please keep to this subreddit's rules.";
    expect(writes().filter(([path]) => path === '/api/comment')).toEqual(
      expect.arrayContaining([
        ['/api/comment', { api_type: 'json', thing_id: comment, text: warning }],
        ['/api/comment', { api_type: 'json', thing_id: post, text: warning }],
      ]),
    );
  });

  it('a new member’s image, video or gallery post is not a link they shared; a link post to another site is', async () => {
    const { key, community, sub } = await activated();
    const id = () => Math.random().toString(36).slice(2, 8);
    const upload = { is_self: false, domain: 'i.redd.it', is_reddit_media_domain: true };
    reddit.post(sub, 'photographer1', 'My cat', '', { ...upload, url: `https://i.redd.it/${id()}.jpeg` });
    reddit.post(sub, 'photographer2', 'Sunset timelapse', '', {
      ...upload,
      domain: 'v.redd.it',
      is_video: true,
      url: `https://v.redd.it/${id()}`,
    });
    reddit.post(sub, 'photographer3', 'Holiday album', '', {
      is_self: false,
      domain: 'reddit.com',
      is_gallery: true,
      url: `https://www.reddit.com/gallery/${id()}`,
    });
    const external = reddit.post(sub, 'promoter1', 'Look at this', '', {
      is_self: false,
      domain: 'example.com',
      url: 'https://example.com/offer',
    });
    await sync(key, community.id);
    await settle();
    const logs = (await status(key, community.id)).audit_logs;
    expect(logs.map((l: { event_id: string; rule: string }) => [l.event_id, l.rule])).toEqual([[external, 'link']]);
    expect(writes().filter(([path]) => path === '/api/comment')).toEqual([
      ['/api/comment', expect.objectContaining({ thing_id: external })],
    ]);
  });

  it('a whitelisted username written the Reddit way (u/name, /u/name) exempts that account', async () => {
    const { key, community, sub } = await activated();
    const put = await api.call('PUT', `${BASE}/communities/${community.id}`, {
      key,
      body: { whitelisted_usernames: ['u/Acme_Founder', '/u/second_mod'] },
    });
    expect(put.status).toBe(200);
    reddit.post(sub, 'acme_founder', 'Our docs moved', 'https://docs.example.com/start');
    reddit.comment(sub, 'Second_Mod', 'Details at https://example.com/faq');
    const stranger = reddit.comment(sub, 'stranger1', 'Details at https://example.com/faq');
    await sync(key, community.id);
    await settle();
    const logs = (await status(key, community.id)).audit_logs;
    expect(logs.map((l: { event_id: string; rule: string }) => [l.event_id, l.rule])).toEqual([[stranger, 'link']]);
  });

  it('mass mentions are counted as Reddit writes them (u/name, /u/name)', async () => {
    const { key, community, sub } = await activated();
    const names = ['alpha_one', 'beta-two', 'gamma3', 'delta_4', 'epsilon5', 'zeta_six'];
    const pinged = reddit.comment(
      sub,
      'pinger1',
      `hey ${names.map((n, i) => (i % 2 ? `/u/${n}` : `u/${n}`)).join(' ')} look at this`,
    );
    // Five, and one named twice: within the limit.
    reddit.comment(
      sub,
      'pinger2',
      `thanks ${names
        .slice(0, 5)
        .map((n) => `u/${n}`)
        .join(' ')} and /u/${names[0]}`,
    );
    await sync(key, community.id);
    await settle();
    const logs = (await status(key, community.id)).audit_logs;
    expect(logs.map((l: { event_id: string; rule: string }) => [l.event_id, l.rule])).toEqual([
      [pinged, 'mass_mentions'],
    ]);
  });

  it('an item a human moderator approved is never touched', async () => {
    const { key, community, sub } = await activated();
    reddit.post(sub, 'spammer4', SCAM, '', { approved_by: 'alice' });
    await sync(key, community.id);
    await settle();
    expect(writes()).toEqual([]);
    expect((await status(key, community.id)).audit_logs).toEqual([]);
  });

  it('observe mode records the decision and calls nothing', async () => {
    const { key, community, sub } = await activated();
    await api.call('PUT', `${BASE}/communities/${community.id}/rules`, { key, body: { mode: 'observe' } });
    const spam = reddit.post(sub, 'spammer5', SCAM);
    await sync(key, community.id);
    await settle();
    expect(writes()).toEqual([]);
    expect((await status(key, community.id)).audit_logs[0]).toMatchObject({
      event_id: spam,
      action: 'mute',
      delivery: { status: 'observe', error: null },
    });
  });

  it('a ban bans and removes; undo unbans and approves; undo of a removal approves the item', async () => {
    const { key, community, sub } = await activated();
    const shout = reddit.post(sub, 'loud', 'WHY IS NOTHING WORKING ON THIS PAGE, SUBSCRIBE');
    const first = reddit.post(sub, 'spammer6', SCAM);
    await sync(key, community.id);
    await settle();
    reddit.reset();
    const second = reddit.comment(sub, 'spammer6', 'Connect your wallet to claim the bonus', first);
    await sync(key, community.id);
    await settle();
    expect(writes()).toEqual(
      expect.arrayContaining([
        [
          `/r/${sub.toLowerCase()}/api/friend`,
          {
            api_type: 'json',
            type: 'banned',
            name: 'spammer6',
            ban_reason: expect.any(String),
            note: `Banned by the moderation service for ${second}`,
          },
        ],
        ['/api/remove', { api_type: 'json', id: second, spam: 'true' }],
        ['/api/mod/conversations', expect.objectContaining({ subject: 'ban: u/spammer6' })],
      ]),
    );
    expect(writes()).toHaveLength(3);
    expect(reddit.bannedIn(sub)).toEqual(['spammer6']);
    const logs = (await status(key, community.id)).audit_logs;
    const ban = logs.find((l: { action: string }) => l.action === 'ban');
    const removal = logs.find(
      (l: { action: string; event_id: string }) => l.action === 'delete' && l.event_id === shout,
    );
    expect(ban).toBeDefined();
    expect(removal).toBeDefined();
    // A removal can be approved again on Reddit: both are offered for undo.
    expect([ban.undoable, removal.undoable]).toEqual([true, true]);

    reddit.reset();
    const undoBan = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${ban.id}/undo`, { key });
    expect(undoBan.body).toMatchObject({ audit_id: ban.id, action: 'ban', delivery: 'delivered', error: null });
    const undoRemoval = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${removal.id}/undo`, {
      key,
    });
    expect(undoRemoval.body).toMatchObject({ action: 'delete', delivery: 'delivered' });
    expect(writes()).toEqual([
      [`/r/${sub.toLowerCase()}/api/unfriend`, { api_type: 'json', type: 'banned', name: 'spammer6' }],
      ['/api/approve', { api_type: 'json', id: second }],
      ['/api/approve', { api_type: 'json', id: shout }],
    ]);
    expect(reddit.bannedIn(sub)).toEqual([]);
    expect(reddit.item(shout)?.approved_by).toBe(BOT);
    // An approved item stays approved: the next poll leaves it alone.
    reddit.reset();
    await sync(key, community.id);
    await settle();
    expect(writes()).toEqual([]);
  });
  it('undo lifts only a ban the service placed and that is still its own: a ban a human moderator placed again stays', async () => {
    const { key, community, sub } = await activated();
    const first = reddit.post(sub, 'spammer17', SCAM);
    await sync(key, community.id);
    await settle();
    const second = reddit.comment(sub, 'spammer17', 'Connect your wallet to claim the bonus', first);
    await sync(key, community.id);
    await settle();
    expect(reddit.bannedIn(sub)).toEqual(['spammer17']);
    // A moderator bans the account again in Reddit's own tools, for reasons of their own.
    reddit.banByHand(sub, 'spammer17', 'harassing members in modmail');
    const ban = (await status(key, community.id)).audit_logs.find((l: { action: string }) => l.action === 'ban');
    reddit.reset();
    const undo = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${ban.id}/undo`, { key });
    expect(undo.status).toBe(200);
    expect(undo.body).toMatchObject({
      action: 'ban',
      delivery: 'failed',
      error: `u/spammer17's ban in r/${sub.toLowerCase()} is not the one the service placed (a moderator banned the account since): it stays.`,
    });
    expect(calls()).toContainEqual([
      'GET',
      `/r/${sub.toLowerCase()}/about/banned`,
      { user: 'spammer17', raw_json: '1' },
    ]);
    expect(writes()).toEqual([['/api/approve', { api_type: 'json', id: second }]]);
    expect(reddit.bannedIn(sub)).toEqual(['spammer17']);
  });

  it('after a move, undo approves in the subreddit the item was removed in, until another community moderates it', async () => {
    const { key, community, sub } = await activated();
    const [first, second] = [reddit.post(sub, 'spammer8', SCAM), reddit.post(sub, 'spammer9', SCAM)];
    await sync(key, community.id);
    await settle();
    expect([reddit.item(first)?.removed, reddit.item(second)?.removed]).toEqual([true, true]);
    const logs = (await status(key, community.id)).audit_logs;
    const entryOf = (id: string) => logs.find((l: { event_id: string }) => l.event_id === id);
    // The community moves to another subreddit: a new activation there.
    const next = newSub();
    reddit.addSubreddit(next, ['alice']);
    const fresh = await api.call('POST', `${BASE}/communities/${community.id}/activation-token`, { key });
    reddit.privateMessage('alice', `/activate ${fresh.body.activation_token} r/${next}`);
    expect(await readRedditInbox((await redditBot())!, PLATFORM_CORE)).toMatchObject({ activated: 1 });
    await settle();
    expect((await status(key, community.id)).platform.chat_id).toBe(next.toLowerCase());
    reddit.reset();

    // Its first subreddit is free: the item is approved there.
    const undo = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${entryOf(first).id}/undo`, {
      key,
    });
    expect(undo.body).toMatchObject({ delivery: 'delivered', error: null });
    expect(writes()).toContainEqual(['/api/approve', { api_type: 'json', id: first }]);
    expect(reddit.item(first)?.approved_by).toBe(BOT);

    // Another community now moderates it: the undo is refused and approves nothing.
    await activated({ sub });
    reddit.reset();
    const refused = await api.call(
      'POST',
      `${BASE}/communities/${community.id}/audit-logs/${entryOf(second).id}/undo`,
      { key },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toContain(
      `${sub.toLowerCase()} on reddit, which another community moderates now`,
    );
    expect(writes()).toEqual([]);
    expect(reddit.item(second)?.approved_by).not.toBe(BOT);
  });

  it('an entry from the events endpoint cannot be undone on Reddit: another customer could name any item the bot moderates', async () => {
    const victim = await activated();
    const spam = reddit.post(victim.sub, 'spammer7', SCAM);
    await sync(victim.key, victim.community.id);
    await settle();
    expect(reddit.item(spam)?.removed).toBe(true);
    // Another customer's bound community records an event naming the victim's removed item, then undoes it.
    const attacker = await activated();
    const event = {
      event_id: spam,
      type: 'message',
      user: { id: 'x1' },
      text: SCAM,
      sent_at: new Date().toISOString(),
    };
    const posted = await api.call('POST', `${BASE}/communities/${attacker.community.id}/events`, {
      key: attacker.key,
      body: { events: [event] },
    });
    expect(posted.body.decisions[0].action).not.toBe('allow');
    const entry = (await status(attacker.key, attacker.community.id)).audit_logs[0];
    expect(entry.event_id).toBe(spam);
    expect(entry.undoable).toBe(false); // the status offers no undo it would refuse
    reddit.reset();
    const undo = await api.call('POST', `${BASE}/communities/${attacker.community.id}/audit-logs/${entry.id}/undo`, {
      key: attacker.key,
    });
    expect(undo.status).toBe(422);
    expect(undo.body.error.code).toBe('invalid_state');
    expect(writes()).toEqual([]);
    expect(reddit.item(spam)?.removed).toBe(true);
    expect(reddit.item(spam)?.approved_by).not.toBe(BOT);
  });
});

describe('Reddit rules', () => {
  it('a captcha is refused with 400: Reddit tells no one when someone joins, so there is no one to challenge', async () => {
    const { key, community } = await redditCommunity();
    const rules = `${BASE}/communities/${community.id}/rules`;
    const refused = await api.call('PUT', rules, { key, body: { captcha: { enabled: true, timeout_seconds: 60 } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: {
        code: 'validation_error',
        message: 'A captcha cannot run on reddit: it tells no one when someone joins.',
        details: [{ path: 'captcha.enabled', message: expect.any(String) }],
      },
      request_id: expect.any(String),
    });
    expect((await api.call('GET', rules, { key })).body.captcha.enabled).toBe(false);
    // What GET answers can be sent back as it is (its captcha is off).
    const current = (await api.call('GET', rules, { key })).body;
    expect((await api.call('PUT', rules, { key, body: { ...current, warn_limit: 2 } })).status).toBe(200);
  });
});

describe('a Reddit community paid again after a suspension', () => {
  it('moderates nothing written while it was suspended, and does not page back to where it had read before', async () => {
    const c = await activated();
    const { community, sub, userId } = c;
    reddit.post(sub, 'regular', 'before the suspension');
    await runPoll(shardOf(c));
    await setCommunityFields(userId, community.id, { billingState: 'suspended' });
    // Written while nothing was monitored: more than a page, a scam among them.
    const written = Math.floor(Date.now() / 1000) - 60;
    for (let i = 0; i < 120; i++) reddit.post(sub, `member${i}`, `Post number ${i}`, '', { created_utc: written });
    reddit.post(sub, 'spammer4', SCAM, '', { created_utc: written });
    expect(await renewOnceDue(userId, community.id)).toBe('renewed');
    const spamSince = reddit.post(sub, 'spammer5', SCAM);
    reddit.reset();
    await runPoll(shardOf(c));
    await settle();
    const lower = sub.toLowerCase();
    expect(
      reddit.calls.filter((call) => call.method === 'GET').map((call) => [call.path, call.query.after ?? null]),
    ).toEqual([
      [`/r/${lower}/new`, null],
      [`/r/${lower}/comments`, null],
    ]);
    expect(writes().filter(([path]) => path === '/api/remove')).toEqual([
      ['/api/remove', { api_type: 'json', id: spamSince, spam: 'true' }],
    ]);
  });
});

describe('Reddit limits and failures', () => {
  it('a 429 postpones the delivery by X-Ratelimit-Reset; Remaining 0 keeps the next call from being sent at all', async () => {
    const { key, community, sub } = await activated();
    reddit.rateLimitNext(/^\/api\/remove$/, 120);
    const spam = reddit.post(sub, 'spammer7', SCAM);
    await sync(key, community.id);
    await api.ports.queue.settled();
    const removeCalls = reddit.calls.filter((c) => c.path === '/api/remove');
    expect(removeCalls).toHaveLength(1);
    expect((await status(key, community.id)).audit_logs[0]).toMatchObject({
      event_id: spam,
      delivery: { status: 'pending' },
    });

    // Reddit says the window is spent: the budget keeps every further call home.
    reddit.reset();
    reddit.setRate(1, 600);
    await sync(key, community.id);
    const before = reddit.calls.length;
    reddit.post(sub, 'spammer8', SCAM);
    await sync(key, community.id);
    expect(reddit.calls.length).toBe(before);
  });

  it('a mute waiting out a rate limit is in force meanwhile: the author’s items read in the next polls are removed', async () => {
    const { key, community, sub } = await activated();
    reddit.rateLimitNext(/^\/api\/remove$/, 120);
    const spam = reddit.post(sub, 'spammer13', SCAM);
    await sync(key, community.id);
    await api.ports.queue.settled();
    expect((await status(key, community.id)).audit_logs[0]).toMatchObject({
      event_id: spam,
      action: 'mute',
      delivery: { status: 'pending' },
    });
    // Reddit's window is open again for the next poll; the mute's own delivery still waits for its time.
    await clearBudget();
    reddit.reset();
    const later = reddit.comment(sub, 'spammer13', 'anyone here?', spam);
    await sync(key, community.id);
    await api.ports.queue.settled();
    expect(writes()).toEqual([['/api/remove', { api_type: 'json', id: later, spam: 'false' }]]);
  });

  it('a removal that waited out a rate limit leaves an item a human moderator approved meanwhile', async () => {
    const { key, community, sub } = await activated();
    reddit.rateLimitNext(/^\/api\/remove$/, 120);
    const spam = reddit.post(sub, 'spammer15', SCAM);
    await sync(key, community.id);
    await settle();
    expect((await status(key, community.id)).audit_logs[0]).toMatchObject({
      event_id: spam,
      delivery: { status: 'pending' },
    });
    // A moderator looks at it meanwhile and approves it.
    Object.assign(reddit.item(spam)!, { approved_by: 'alice' });
    await waitIsOver(community.id, spam);
    reddit.reset();
    expect(await runDelivery(community.id, decisionDeliveryId(spam))).toBe('delivered');
    expect(calls()).toContainEqual(['GET', '/api/info', { id: spam, raw_json: '1' }]);
    expect(writes().filter(([path]) => path === '/api/remove')).toEqual([]);
    expect(reddit.item(spam)).toMatchObject({ approved_by: 'alice', banned_by: null });
  });

  it('a delivery that waited out a rate limit acts nowhere once its community moved and another holds its subreddit', async () => {
    const mover = await activated();
    reddit.rateLimitNext(/^\/api\/remove$/, 120);
    const spam = reddit.post(mover.sub, 'spammer16', SCAM);
    await sync(mover.key, mover.community.id);
    await settle();
    await clearBudget();
    // The community moves to another subreddit; another customer's community binds the first one.
    const next = newSub();
    reddit.addSubreddit(next, ['alice']);
    await bindModeratedPlace((await getCommunity(mover.userId, mover.community.id, true))!, next.toLowerCase());
    // A second later: Reddit's times are whole seconds, and the newcomer moderates from its activation's second on.
    await new Promise((r) => setTimeout(r, 1100));
    await activated({ sub: mover.sub });
    await waitIsOver(mover.community.id, spam);
    reddit.reset();
    expect(await runDelivery(mover.community.id, decisionDeliveryId(spam))).toBe('failed');
    expect(reddit.calls).toEqual([]);
    expect(reddit.item(spam)?.removed).toBeFalsy();
    expect((await status(mover.key, mover.community.id)).audit_logs[0].delivery).toEqual({
      status: 'failed',
      error: `The community left ${mover.sub.toLowerCase()} before these calls were made: the rest were not sent.`,
    });
  });

  it('a worker killed (kill -9) while its warning and alert went out: the deliveries run again send neither a second time', async () => {
    const { community, userId, sub } = await activated();
    const place = sub.toLowerCase();
    const item = reddit.post(sub, 'author20', 'scamcoin to the moon');
    const target = {
      communityId: community.id,
      subreddit: place,
      fullname: item,
      author: 'author20',
      writtenAt: new Date().toISOString(),
      rule: 'blocked_word',
      reason: 'Blocked word: scamcoin',
    };
    const warning = decisionDeliveryId(item);
    const alert = `alert:${item}`;
    const plan = { communityId: community.id, userId, eventId: item, place, observe: false, queue: false };
    await scheduleDelivery({
      ...plan,
      deliveryId: warning,
      purpose: 'warn',
      calls: REDDIT_DECISION_CALLS.warn(target, { warning: '⚠️ Blocked word. Please keep to this subreddit’s rules.' }),
    });
    await scheduleDelivery({
      ...plan,
      deliveryId: alert,
      purpose: 'alert',
      calls: [redditAlertCall(place, 'warn: u/author20')],
    });
    const modmailBefore = reddit.modmail.length;
    // Reddit holds both calls until the worker is gone, then carries them out.
    reddit.gatherNext(/^\/api\/(comment|mod\/conversations)$/, 3);
    const sent = () => reddit.calls.filter((c) => c.path === '/api/comment' || c.path === '/api/mod/conversations');
    const worker = spawn(
      fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url)),
      [fileURLToPath(new URL('../support/deliveryWorker.ts', import.meta.url)), community.id, warning, alert],
      { env: process.env, stdio: 'ignore' },
    );
    const exited = once(worker, 'exit');
    for (let i = 0; i < 1200 && sent().length < 2; i++) await new Promise((r) => setTimeout(r, 25));
    expect(sent()).toHaveLength(2);
    worker.kill('SIGKILL');
    await exited;
    for (let i = 0; i < 400 && reddit.modmail.length === modmailBefore; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(reddit.modmail).toHaveLength(modmailBefore + 1);
    // The queue brings both deliveries back (after the stall): nothing is sent twice.
    expect(await runDelivery(community.id, warning)).toBe('delivered');
    expect(await runDelivery(community.id, alert)).toBe('delivered');
    expect(
      sent()
        .map((c) => c.path)
        .sort(),
    ).toEqual(['/api/comment', '/api/mod/conversations']);
    expect(reddit.modmail).toHaveLength(modmailBefore + 1);
  });

  it('a 200 whose json.errors is not empty fails the delivery with Reddit’s error', async () => {
    const { key, community, sub } = await activated();
    reddit.refuseNext(/^\/r\/[^/]+\/api\/friend$/, [['USER_DOESNT_EXIST', "that user doesn't exist", 'name']]);
    reddit.post(sub, 'spammer9', SCAM);
    await sync(key, community.id);
    await settle();
    reddit.comment(sub, 'spammer9', 'Connect your wallet to claim the bonus');
    await sync(key, community.id);
    await settle();
    const ban = (await status(key, community.id)).audit_logs.find((l: { action: string }) => l.action === 'ban');
    expect(ban.delivery).toEqual({
      status: 'failed',
      error: `POST /r/${sub.toLowerCase()}/api/friend: USER_DOESNT_EXIST: that user doesn't exist: name`,
    });
  });

  it('a poll or inbox read Reddit refuses is logged: revoked operator credentials do not stop moderation silently', async () => {
    const c = await activated();
    process.env.REDDIT_REFRESH_TOKEN = 'revoked-refresh-token';
    forgetRedditTokens();
    const warn = vi.spyOn(logger, 'warn');
    try {
      await runPoll(shardOf(c));
      await runPoll({ kind: 'moderation.poll', platform: 'reddit', communities: [], operator: true });
      const refused = "Reddit refused the operator's credentials (invalid_grant)";
      expect(warn.mock.calls).toEqual(
        expect.arrayContaining([
          ['reddit poll: listing read failed', { communities: 1, listing: 't3', status: 401, error: refused }],
          ['reddit poll: inbox read failed', { status: 401, error: refused }],
        ]),
      );
    } finally {
      warn.mockRestore();
      process.env.REDDIT_REFRESH_TOKEN = ENV.REDDIT_REFRESH_TOKEN;
      forgetRedditTokens();
    }
  });

  it('without operator credentials nothing is read and an undo is recorded as not_configured', async () => {
    const { key, community, sub } = await activated();
    await api.call('PUT', `${BASE}/communities/${community.id}/rules`, { key, body: { mode: 'enforce' } });
    reddit.post(sub, 'loud2', 'ANOTHER LOUD REPLY HERE, SUBSCRIBE');
    await sync(key, community.id);
    await settle();
    const removal = (await status(key, community.id)).audit_logs[0];
    delete process.env.REDDIT_REFRESH_TOKEN;
    forgetRedditTokens();
    try {
      reddit.reset();
      reddit.post(sub, 'spammer10', SCAM);
      const res = await sync(key, community.id);
      expect(res.body.platform.configured).toBe(false);
      expect(reddit.calls).toEqual([]);
      const undo = await api.call('POST', `${BASE}/communities/${community.id}/audit-logs/${removal.id}/undo`, { key });
      expect(undo.body).toMatchObject({
        action: 'delete',
        delivery: 'not_configured',
        error: 'reddit is not configured on this deployment',
      });
      expect(reddit.calls).toEqual([]);
    } finally {
      process.env.REDDIT_REFRESH_TOKEN = ENV.REDDIT_REFRESH_TOKEN;
    }
  });

  it('two pollers at once share the deployment’s budget: together they send no more than it allows', async () => {
    const one = await activated();
    const two = await activated();
    // Reddit and the budget agree: 12 requests left, and polling leaves 10 of them to actions.
    await clearBudget();
    reddit.reset();
    reddit.setRate(12, 300);
    await observeRedditRate(CLIENT_ID, Date.now(), 12, 300);
    await Promise.all([runPoll(shardOf(one)), runPoll(shardOf(two))]);
    expect(reddit.calls.filter((c) => c.method === 'GET')).toHaveLength(2);
  });

  it('one consumer cannot starve the others: a flood of messages to the bot stops at its share of the window, and another customer’s removal still goes out', async () => {
    const victim = await activated();
    const flood = await redditCommunity();
    // 60 accounts send the customer's valid token for subreddits they do not moderate: each message is a
    // moderator lookup and a refusal (the first to each account).
    const tag = ++subSeq;
    for (let i = 0; i < 60; i++) {
      reddit.addSubreddit(`flood_${tag}_${i}`, ['someone']);
      reddit.privateMessage(`flooder_${tag}_${i}`, `/activate ${flood.community.activation_token} r/flood_${tag}_${i}`);
    }
    // Reddit's window: 100 requests.
    await clearBudget();
    reddit.reset();
    reddit.setRate(100, 300);
    await observeRedditRate(CLIENT_ID, Date.now(), 100, 300);
    await runPoll({ kind: 'moderation.poll', platform: 'reddit', communities: [], operator: true });
    // Half the window at most (the messages it handled are marked read beyond that).
    expect(reddit.calls.length).toBeLessThanOrEqual(51);
    expect(reddit.calls.at(-1)?.path).toBe('/api/read_message');
    expect(reddit.unreadCount()).toBeGreaterThan(0);
    reddit.reset();
    const spam = reddit.post(victim.sub, 'spammer21', SCAM);
    await runPoll(shardOf(victim));
    await settle();
    expect(writes()).toContainEqual(['/api/remove', { api_type: 'json', id: spam, spam: 'true' }]);
    reddit.markAllRead();
  });

  it('the minute schedule queues the bound communities in shards plus the inbox', async () => {
    const { community } = await activated();
    const report = await fanOutPolls();
    expect(report.platforms.reddit.communities).toBeGreaterThanOrEqual(1);
    expect(report.platforms.reddit.shards).toBe(1 + Math.ceil(report.platforms.reddit.communities / 50));
    expect((await listPolledCommunities('reddit')).some((p) => p.communityId === community.id)).toBe(true);
    await settle();
  });
});

describe('on-demand polls', () => {
  it('POST /sync polls Reddit at most once per community per interval: sooner is 429 rate_limited with Retry-After and no call', async () => {
    const c = await activated();
    const other = await activated();
    // Long enough that a loaded machine running other suites still makes the second sync inside it.
    process.env.MODERATION_SYNC_INTERVAL_SECONDS = '5';
    reloadConfig();
    try {
      // Two at once: one claim wins and polls; the other is refused before it calls Reddit.
      const pair = await Promise.all([sync(c.key, c.community.id), sync(c.key, c.community.id)]);
      expect(pair.map((r) => r.status).sort()).toEqual([200, 429]);
      const refused = pair.find((r) => r.status === 429)!;
      expect(refused.body.error.code).toBe('rate_limited');
      const wait = Number(refused.headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(5);
      const polled = reddit.calls.filter((call) => call.method === 'GET').length;
      expect(polled).toBeGreaterThan(0);

      // The spacing is per community: another one of the same caller is polled now.
      expect((await sync(other.key, other.community.id)).status).toBe(200);
      const afterOther = reddit.calls.length;
      expect((await sync(c.key, c.community.id)).status).toBe(429);
      expect(reddit.calls).toHaveLength(afterOther);

      // Once the interval has passed, the next sync polls again.
      await new Promise((r) => setTimeout(r, 5100));
      expect((await sync(c.key, c.community.id)).status).toBe(200);
      expect(reddit.calls.length).toBeGreaterThan(afterOther);
    } finally {
      process.env.MODERATION_SYNC_INTERVAL_SECONDS = '0';
      reloadConfig();
    }
  });

  it('a sync leaves half the deployment’s budget to the schedule: below that it reads nothing, and the minute’s poll still reads', async () => {
    const c = await activated();
    const listings = () => reddit.calls.filter((call) => call.method === 'GET').map((call) => call.path);
    // 40 of the window's 100 requests left: enough for the schedule (which leaves 10), not for a sync (50).
    await clearBudget();
    reddit.reset();
    reddit.setRate(40, 300);
    await observeRedditRate(CLIENT_ID, Date.now(), 40, 300);
    expect((await sync(c.key, c.community.id)).status).toBe(200);
    expect(listings()).toEqual([]);
    await runPoll(shardOf(c));
    expect(listings()).toEqual([`/r/${c.sub}/new`, `/r/${c.sub}/comments`]);
    // With more than half left, a sync reads at once.
    await clearBudget();
    reddit.reset();
    reddit.setRate(600, 600);
    expect((await sync(c.key, c.community.id)).status).toBe(200);
    expect(listings()).toEqual([`/r/${c.sub}/new`, `/r/${c.sub}/comments`]);
  });

  it('a sync leaves half of Reddit’s own window to the schedule, however large Reddit says it is', async () => {
    const c = await activated();
    const listings = () => reddit.calls.filter((call) => call.method === 'GET').map((call) => call.path);
    // Reddit's window as it reports it: 600 requests for 10 minutes, 500 of them spent. The schedule's
    // poll reads (and the budget takes Reddit's reading); 98 left is far below half of 600.
    await clearBudget();
    reddit.setRate(100, 600, 500);
    await runPoll(shardOf(c));
    reddit.reset();
    expect((await sync(c.key, c.community.id)).status).toBe(200);
    expect(listings()).toEqual([]);
    await runPoll(shardOf(c));
    expect(listings()).toEqual([`/r/${c.sub}/new`, `/r/${c.sub}/comments`]);
  });

  it('a sync of a community awaiting activation reads the bot’s inbox only while half the window is left', async () => {
    const c = await redditCommunity();
    const sub = newSub();
    reddit.addSubreddit(sub, ['alice']);
    reddit.privateMessage('alice', `/activate ${c.community.activation_token} r/${sub}`);
    // 40 of the window's 100 requests left: a sync reads nothing, the inbox included.
    await clearBudget();
    reddit.reset();
    reddit.setRate(40, 300);
    await observeRedditRate(CLIENT_ID, Date.now(), 40, 300);
    const res = await sync(c.key, c.community.id);
    expect(res.status).toBe(200);
    expect(res.body.connection_state).toBe('pending_activation');
    expect(reddit.calls).toEqual([]);
    // The minute's inbox read activates it.
    await runPoll({ kind: 'moderation.poll', platform: 'reddit', communities: [], operator: true });
    expect(calls()[0]).toEqual(['GET', '/message/unread', { limit: '100', raw_json: '1' }]);
    expect((await getCommunity(c.userId, c.community.id, true))?.activatedAt).toBeTruthy();
  });

  it('a sync refused by a claim stamped a moment after its own clock reading waits no longer than the interval', async () => {
    const c = await activated();
    process.env.MODERATION_SYNC_INTERVAL_SECONDS = '5';
    reloadConfig();
    try {
      // Two concurrent syncs read the clock, then race to claim: the winner may have read it later.
      expect((await claimSyncPoll(c.community.id, new Date(Date.now() + 800), 5)).claimed).toBe(true);
      const refused = await sync(c.key, c.community.id);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBe(5);
      expect(reddit.calls).toHaveLength(0);
    } finally {
      process.env.MODERATION_SYNC_INTERVAL_SECONDS = '0';
      reloadConfig();
    }
  });
});
