/**
 * The Reddit adapter against the recording stand-in: the token from the refresh token, reused and
 * renewed on 401; bearer and User-Agent on every call; form bodies; `json.errors` as a failure;
 * rate headers and 429 as retryAfterSeconds; the shared budget in the table; the paged listing read.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { forgetRedditTokens, RedditApi, type RedditConfig } from '#shared/platforms/reddit/api';
import { sharedRedditBudget } from '#shared/platforms/reddit/budget';
import { readListing } from '#shared/platforms/reddit/readListing';
import { idNumber, subredditKey, toChatEvent, type SubredditState } from '#shared/platforms/reddit/listing';
import { readRedditBudget } from '#shared/platforms/reddit/budgetRepo';
import { startRedditStandIn } from '#bin/standIns/redditStandIn';

const CLIENT = {
  clientId: `client-${randomUUID()}`,
  clientSecret: 'app-secret',
  refreshToken: 'bot-refresh-token',
  botUsername: 'OutreachModBot',
};
const reddit = await startRedditStandIn(CLIENT);
afterAll(() => reddit.close());

const config = (clientId = CLIENT.clientId): RedditConfig => ({
  ...CLIENT,
  clientId,
  userAgent: 'node:outreach-moderation:1.0 (by /u/OutreachModBot)',
  apiBase: reddit.apiBase,
  authBase: reddit.authBase,
});
/** Each test its own client id, so budgets (one per client id) do not leak between tests. */
let clientId = CLIENT.clientId;
beforeEach(() => {
  reddit.reset();
  reddit.setRate(600, 600);
  forgetRedditTokens();
  clientId = `${CLIENT.clientId}-${randomUUID().slice(0, 8)}`;
  reddit.addClientId(clientId);
});
const api = () => new RedditApi(config(clientId), sharedRedditBudget(clientId));

describe('Reddit adapter', () => {
  it('gets a token once with HTTP Basic and the refresh token, then sends bearer and the User-Agent with form bodies', async () => {
    reddit.addSubreddit('cryptoA', ['alice', 'OutreachModBot']);
    const post = reddit.post('cryptoA', 'spammer', 'hello');
    const client = api();
    expect((await client.post('/api/remove', { id: post, spam: 'true' })).ok).toBe(true);
    expect((await client.post('/api/approve', { id: post })).ok).toBe(true);
    expect(reddit.tokenRequests).toEqual([
      {
        authorization: `Basic ${Buffer.from(`${clientId}:app-secret`).toString('base64')}`,
        form: { grant_type: 'refresh_token', refresh_token: 'bot-refresh-token' },
      },
    ]);
    expect(reddit.calls.map((c) => [c.method, c.path, c.form, c.authorization, c.userAgent])).toEqual([
      [
        'POST',
        '/api/remove',
        { api_type: 'json', id: post, spam: 'true' },
        'bearer reddit-access-1',
        'node:outreach-moderation:1.0 (by /u/OutreachModBot)',
      ],
      [
        'POST',
        '/api/approve',
        { api_type: 'json', id: post },
        'bearer reddit-access-1',
        'node:outreach-moderation:1.0 (by /u/OutreachModBot)',
      ],
    ]);
    expect(reddit.item(post)?.approved_by).toBe('OutreachModBot');
  });

  it('renews the token on a 401 and repeats the call once', async () => {
    reddit.addSubreddit('cryptoB', ['alice']);
    const client = api();
    expect((await client.get('/r/cryptoB/about/moderators')).ok).toBe(true);
    reddit.expireTokens();
    const again = await client.get('/r/cryptoB/about/moderators');
    expect(again.ok).toBe(true);
    expect(reddit.tokenRequests).toHaveLength(2);
    // The second call met a 401 with the old token and was repeated with the new one.
    expect(reddit.calls).toHaveLength(3);
    expect(reddit.calls[1].authorization).toBe(reddit.calls[0].authorization);
    expect(reddit.calls[2].authorization).not.toBe(reddit.calls[0].authorization);
  });

  it('refused operator credentials are a failure that names the reason, and no API call is made', async () => {
    const bad = new RedditApi({ ...config(clientId), refreshToken: 'revoked' }, sharedRedditBudget(clientId));
    const outcome = await bad.post('/api/remove', { id: 't3_x' });
    expect(outcome).toEqual({
      ok: false,
      status: 401,
      error: "Reddit refused the operator's credentials (invalid_grant)",
    });
    expect(reddit.calls).toHaveLength(0);
  });

  it('a 200 whose json.errors is not empty is a failure; RATELIMIT in it is a wait', async () => {
    reddit.addSubreddit('cryptoC', ['alice']);
    const post = reddit.post('cryptoC', 'bob', 'hi');
    reddit.refuseNext(/^\/api\/comment$/, [['THREAD_LOCKED', 'Comments are locked.', 'parent']]);
    expect(await api().post('/api/comment', { thing_id: post, text: 'x' })).toEqual({
      ok: false,
      status: 200,
      error: 'POST /api/comment: THREAD_LOCKED: Comments are locked.: parent',
    });
    reddit.refuseNext(
      /^\/api\/comment$/,
      [['RATELIMIT', 'you are doing that too much. try again in 2 minutes.', 'ratelimit']],
      95.4,
    );
    expect(await api().post('/api/comment', { thing_id: post, text: 'x' })).toMatchObject({
      ok: false,
      status: 429,
      retryAfterSeconds: 96,
    });
  });

  it('a 429 comes back with the seconds of X-Ratelimit-Reset', async () => {
    reddit.rateLimitNext(/\/new$/, 42);
    expect(await api().get('/r/cryptoD/new', { limit: '100' })).toEqual({
      ok: false,
      status: 429,
      error: 'GET /r/cryptoD/new: rate limited by Reddit',
      retryAfterSeconds: 42,
    });
  });

  it('X-Ratelimit-Remaining 0 spends the shared budget: the next call is not sent and says how long to wait', async () => {
    reddit.addSubreddit('cryptoE', ['alice']);
    reddit.setRate(1, 30);
    const client = api();
    expect((await client.get('/r/cryptoE/about/moderators')).ok).toBe(true);
    const budget = await readRedditBudget(clientId);
    expect(budget?.remaining).toBe(0);
    const next = await client.get('/r/cryptoE/about/moderators');
    expect(next).toMatchObject({ ok: false, status: 429 });
    expect((next as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(29);
    expect((next as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(30);
    expect(reddit.calls).toHaveLength(1);
  });

  it('two workers share one budget: together they never send more than it holds', async () => {
    reddit.addSubreddit('cryptoF', ['alice']);
    // Reddit and the budget agree: 12 left in this window (as Reddit said after an earlier call).
    reddit.setRate(12, 300);
    await sharedRedditBudget(clientId).observe(12, 300);
    const one = api();
    const two = new RedditApi(config(clientId), sharedRedditBudget(clientId));
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).get('/r/cryptoF/about/moderators')),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(12);
    expect(outcomes.filter((o) => !o.ok && o.status === 429 && o.retryAfterSeconds! > 0)).toHaveLength(8);
    expect(reddit.calls).toHaveLength(12);
  });

  it('a network failure is status 0', async () => {
    const client = new RedditApi({ ...config(clientId), apiBase: 'http://127.0.0.1:9' }, sharedRedditBudget(clientId));
    const outcome = await client.get('/r/x/new');
    expect(outcome).toMatchObject({ ok: false, status: 0 });
  });
});

describe('Reddit listings', () => {
  const state = (entries: [string, SubredditState][]) => new Map(entries.map(([k, v]) => [subredditKey(k), v]));

  it('pages with after until it meets an item already read, across a batch of subreddits', async () => {
    reddit.addSubreddit('busyOne', ['alice']);
    reddit.addSubreddit('quietTwo', ['bob']);
    const old = reddit.post('busyOne', 'u0', 'old post');
    const quietOld = reddit.post('quietTwo', 'u1', 'older quiet post');
    const fresh = Array.from({ length: 230 }, (_, i) =>
      reddit.post(i % 10 === 0 ? 'quietTwo' : 'busyOne', `user${i}`, `post ${i}`),
    );
    const subs = state([
      ['busyOne', { cursor: idNumber(old), since: 0 }],
      ['quietTwo', { cursor: idNumber(quietOld), since: 0 }],
    ]);
    const read = await readListing(api(), subs, 't3', ['busyOne', 'quietTwo']);
    expect(read.complete).toBe(true);
    expect(read.pages).toBe(3);
    expect(read.items.map((i) => i.data.name).sort()).toEqual([...fresh].sort());
    expect(read.newest).toBe(idNumber(fresh.at(-1)!));
    expect(reddit.calls.map((c) => [c.path, c.query.limit, c.query.after ?? null])).toEqual([
      ['/r/busyOne+quietTwo/new', '100', null],
      ['/r/busyOne+quietTwo/new', '100', fresh[130]],
      ['/r/busyOne+quietTwo/new', '100', fresh[30]],
    ]);
  });

  it('a subreddit read for the first time takes its items from its activation on, paging back to it', async () => {
    reddit.addSubreddit('newOne', ['alice']);
    const before = reddit.post('newOne', 'u', 'before activation', '', { created_utc: 1_000 });
    const after = reddit.post('newOne', 'u', 'after activation', '', { created_utc: 2_000 });
    const more = Array.from({ length: 150 }, (_, i) =>
      reddit.post('newOne', `u${i}`, `post ${i}`, '', { created_utc: 2_001 + i }),
    );
    const read = await readListing(api(), state([['newOne', { since: 1_500 }]]), 't3', ['newOne']);
    expect(read.items.map((i) => i.data.name).sort()).toEqual([after, ...more].sort());
    expect(read.items.map((i) => i.data.name)).not.toContain(before);
    // Two pages: the second reaches an item written before the activation.
    expect(reddit.calls).toHaveLength(2);
  });

  it('a failed page leaves the read incomplete with the failure', async () => {
    reddit.addSubreddit('limited', ['alice']);
    reddit.rateLimitNext(/^\/r\/limited\/comments$/, 17);
    const read = await readListing(api(), state([['limited', { cursor: 1, since: 0 }]]), 't1', ['limited']);
    expect(read.complete).toBe(false);
    expect(read.failure).toMatchObject({ status: 429, retryAfterSeconds: 17 });
  });

  it('items are engine events by fullname; approved, distinguished, removed, deleted and the bot own items are left alone', () => {
    const base = { id: 'abc', author: 'spammer', subreddit: 'x', created_utc: 1_700_000_000 };
    expect(
      toChatEvent(
        { kind: 't3', data: { ...base, name: 't3_abc', title: 'Free', selftext: 'money', is_self: true } },
        'Bot',
      ),
    ).toEqual({
      event_id: 't3_abc',
      type: 'message',
      user: { id: 'spammer', username: 'spammer' },
      text: 'Free\nmoney',
      sent_at: '2023-11-14T22:13:20.000Z',
    });
    expect(
      toChatEvent(
        { kind: 't3', data: { ...base, name: 't3_abd', title: 'Look', is_self: false, url: 'https://scam.example' } },
        'Bot',
      )?.text,
    ).toBe('Look\nhttps://scam.example');
    expect(toChatEvent({ kind: 't1', data: { ...base, name: 't1_abc', body: 'hi' } }, 'Bot')?.text).toBe('hi');
    expect(
      toChatEvent({ kind: 't1', data: { ...base, name: 't1_abc', body: 'hi', approved_by: 'alice' } }, 'Bot'),
    ).toBeUndefined();
    expect(
      toChatEvent({ kind: 't1', data: { ...base, name: 't1_abc', body: 'hi', distinguished: 'moderator' } }, 'Bot'),
    ).toBeUndefined();
    expect(
      toChatEvent({ kind: 't1', data: { ...base, name: 't1_abc', body: 'hi', banned_by: 'alice' } }, 'Bot'),
    ).toBeUndefined();
    expect(
      toChatEvent({ kind: 't1', data: { ...base, name: 't1_abc', body: 'hi', author: '[deleted]' } }, 'Bot'),
    ).toBeUndefined();
    expect(
      toChatEvent({ kind: 't1', data: { ...base, name: 't1_abc', body: 'hi', author: 'bot' } }, 'Bot'),
    ).toBeUndefined();
  });
});
