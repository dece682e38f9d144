/**
 * X end to end against the local runtime and the recording X stand-in: the OAuth 2.0 flow through
 * the community's authorize_url and the callback, polling replies (POST /sync polls at once), the
 * exact X calls of each decision, re-polls acted on once, observe mode, undo, X's per-user rate
 * limits, a refresh race, and tokens kept out of every answer and log line.
 */
import { createHash, randomBytes } from 'node:crypto';
import { PLATFORM_CORE } from '#shared/domain/moderation/platformCore';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renewOnceDue, setCommunityFields } from '#test/support/communityRecord';
import { startTestApi } from '#test/support/api';
import { useOwnTable } from '#test/support/ownTable';
import { startXStandIn } from '#bin/standIns/xStandIn';
import { ddb, table } from '#shared/store/client';
import { EnvelopeEncryption, LocalKeyWrapper } from '#shared/adapters/encryption';
import { installPorts } from '#shared/adapters/ports';
import { type Key as TableKey, xBannedAuthorsKey, xOAuthStateKey, xTokensKey } from '#shared/store/keys';
import { getXAccount, getXCursor, putXCursor } from '#shared/platforms/x/xRepo';
import { getPolledCommunity } from '#shared/store/pollingRepo';
import { snowflakeAt } from '#shared/platforms/x/replies';
import { runDelivery, scheduleDelivery } from '#shared/domain/moderation/platformCallRunner';
import { getDelivery } from '#shared/store/platformCallsRepo';
import { pollXCommunity } from '#shared/platforms/x/poll';
import { xSession } from '#shared/platforms/x/tokens';
import { getCommunity } from '#shared/store/communitiesRepo';
import { renewCommunity } from '#shared/domain/moderation/renewals';
import { fanOutPolls } from '#shared/domain/moderation/pollFanOut';
import { X_UNSUPPORTED } from '#shared/platforms/x/actions';

const CLIENT = { clientId: 'x-e2e-client', clientSecret: 'x-e2e-secret' };
const x = await startXStandIn(CLIENT);
const X_ENV = {
  X_CLIENT_ID: CLIENT.clientId,
  X_CLIENT_SECRET: CLIENT.clientSecret,
  X_API_BASE: x.apiBase,
  X_AUTHORIZE_URL: x.authorizeUrl,
};
const saved = { ...process.env };
Object.assign(process.env, X_ENV);

// Everything the service writes to stdout/stderr in this file, searched for tokens at the end.
const output: string[] = [];
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    output.push(String(chunk));
    return write(chunk, ...rest);
  }) as typeof stream.write;
}

// The poll schedule it runs polls every polled community of its table: other files' too on the shared table.
await useOwnTable('outreach-x');
const api = await startTestApi();

/** The master key (KMS in AWS) as a local one whose next data keys can be made to fail, as a throttled KMS does. */
class FailingKeyWrapper extends LocalKeyWrapper {
  failures = 0;
  override async newDataKey(context: string) {
    if (this.failures > 0) {
      this.failures -= 1;
      throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    }
    return super.newDataKey(context);
  }
}
const masterKey = new FailingKeyWrapper(randomBytes(32));
installPorts({ encryption: new EnvelopeEncryption(masterKey) });
/** Every answer of the API in this file, searched for tokens at the end. */
const answers: string[] = [];
const call: typeof api.call = async (method, path, options) => {
  const res = await api.call(method, path, options);
  answers.push(res.text, JSON.stringify([...res.headers]));
  return res;
};

afterAll(async () => {
  // Tokens and codes X issued appear in no answer and no log line of the service.
  const issued = x.issued();
  expect(issued.length).toBeGreaterThan(10);
  const everything = [...answers, ...output].join('\n');
  expect(issued.filter((t) => everything.includes(t))).toEqual([]);
  for (const name of Object.keys(X_ENV)) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await x.close();
});
beforeEach(() => x.reset());

const BASE = '/integrations/moderation';
const settle = () => api.ports.queue.drained();
const CALLBACK = `${api.baseUrl}/integrations/moderation/x/callback`;

let accountNo = 0;
async function xCommunity() {
  const { key, user } = await api.newUser({ credits: 5000 });
  const created = await call('POST', `${BASE}/communities`, {
    key,
    body: { name: 'Acme on X', project_name: 'Acme', type: 'x', whitelisted_usernames: ['acme_friend'] },
  });
  expect(created.status).toBe(201);
  return { key, user, community: created.body };
}

/** A customer opens authorize_url, approves on X, and X sends the browser back to the callback. */
async function authorize(key: string, communityId: string, accountId: string) {
  const record = await call('GET', `${BASE}/communities/${communityId}`, { key });
  return call('GET', x.authorize(record.body.authorize_url, accountId));
}

async function connected() {
  const { key, user, community } = await xCommunity();
  const account = x.addAccount({ id: String(7_100_000 + ++accountNo), username: `acme_x${accountNo}` });
  const page = await authorize(key, community.id, account.id);
  expect(page.status).toBe(200);
  x.reset();
  return { key, user, community, account };
}

const sync = (key: string, communityId: string) =>
  call('POST', `${BASE}/sync`, { key, body: { community_id: communityId } });
const status = async (key: string, communityId: string) =>
  (await call('GET', `${BASE}/status?community_id=${communityId}&include_logs=20`, { key })).body;
const hide = (postId: string, hidden = true) => ({
  method: 'PUT',
  path: `/2/tweets/${postId}/hidden`,
  body: { hidden },
});
const mute = (me: string, target: string) => ({
  method: 'POST',
  path: `/2/users/${me}/muting`,
  body: { target_user_id: target },
});
/** Moves a stored item's `expiresAt` (a grant's tokens, an OAuth state) a second into the past. */
const expireItem = (Key: TableKey) =>
  ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key,
      UpdateExpression: 'SET expiresAt = :past',
      ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
    }),
  );
/** Both sides of the community's access token expire: X refuses it, and the service knows to refresh it. */
async function expireTokens(communityId: string) {
  x.expireAccessTokens();
  await expireItem(xTokensKey(communityId));
}
const actions = () => x.actions().map((c) => ({ method: c.method, path: c.path, body: c.body ?? undefined }));

const SCAM = 'Claim your airdrop now at acme-drop.xyz';
const CLEAN = 'Great update, thanks team!';
// A minor breach (removed, no offence): capital letters with a plea for subscribers.
const SHOUT = 'WHY IS NOTHING WORKING ON THIS PAGE, SUBSCRIBE';

describe('connecting an X account', () => {
  it('authorize_url is an OAuth 2.0 PKCE link to our callback; the callback exchanges the code, reads the account and connects', async () => {
    const { key, community } = await xCommunity();
    const account = x.addAccount({ id: '7099001', username: 'acme_connect' });
    const record = await call('GET', `${BASE}/communities/${community.id}`, { key });
    expect(record.body.status).toBe('pending_activation');
    const url = new URL(record.body.authorize_url);
    expect(`${url.origin}${url.pathname}`).toBe(x.authorizeUrl);
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('scope')).toBe('tweet.read users.read tweet.moderate.write mute.write offline.access');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');

    const page = await call('GET', x.authorize(record.body.authorize_url, account.id));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('@acme_connect is now moderated by &#34;Acme on X&#34;');

    const [exchange, me] = x.calls;
    expect(exchange.authorization).toBe(
      `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString('base64')}`,
    );
    const form = x.formOf(exchange);
    expect(form).toEqual({
      grant_type: 'authorization_code',
      code: expect.stringMatching(/^code-/),
      redirect_uri: CALLBACK,
      code_verifier: expect.any(String),
    });
    expect(createHash('sha256').update(form.code_verifier).digest('base64url')).toBe(
      url.searchParams.get('code_challenge'),
    );
    expect(me).toMatchObject({
      method: 'GET',
      path: '/2/users/me',
      authorization: expect.stringMatching(/^Bearer xat-/),
    });
    expect(x.calls).toHaveLength(2);
    const st = await status(key, community.id);
    expect(st.status).toBe('connected');
    expect(st.platform).toMatchObject({
      chat_id: account.id,
      alert_chat_id: null,
      configured: true,
      unsupported: X_UNSUPPORTED,
    });
  });

  it('a used, unknown or expired state answers 400 and reaches nothing on X', async () => {
    const { key, community } = await xCommunity();
    const account = x.addAccount({ id: '7099002', username: 'acme_states' });
    const back = x.authorize(
      (await call('GET', `${BASE}/communities/${community.id}`, { key })).body.authorize_url,
      account.id,
    );
    expect((await call('GET', back)).status).toBe(200);
    x.reset();
    const used = await call('GET', back);
    expect(used.status).toBe(400);
    expect(used.headers.get('content-type')).toMatch(/^text\/html/);
    expect(used.text).toContain('already used');
    const unknown = await call('GET', `${CALLBACK}?code=abc&state=never-issued`);
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('not one we issued');

    // A state whose hour has passed.
    const stale = new URL(
      x.authorize((await call('GET', `${BASE}/communities/${community.id}`, { key })).body.authorize_url, account.id),
    );
    const stateHash = createHash('sha256').update(stale.searchParams.get('state')!).digest('hex');
    await expireItem(xOAuthStateKey(stateHash));
    const expired = await call('GET', stale.toString());
    expect(expired.status).toBe(400);
    expect(expired.text).toContain('expired');
    expect(x.calls).toEqual([]);
  });

  it('an account already moderated by another community is refused, not taken over', async () => {
    const first = await connected();
    const { key, community } = await xCommunity();
    const page = await authorize(key, community.id, first.account.id);
    expect(page.status).toBe(409);
    expect(page.text).toContain('already moderated by another community');
    expect(await getXAccount(community.id)).toBeUndefined();
  });
});

describe('connecting an X account over another', () => {
  const revoked = () =>
    x.calls.filter((c) => c.path === '/2/oauth2/revoke').map((c) => [x.formOf(c).token, x.formOf(c).token_type_hint]);
  const newAccount = () => x.addAccount({ id: String(7_100_000 + ++accountNo), username: `acme_x${accountNo}` });
  const isGrantWrite = (command: unknown, communityId: string) =>
    command instanceof TransactWriteCommand && JSON.stringify(command.input).includes(xTokensKey(communityId).pk);
  /** Runs `act` while the table writes `matches` picks go through `onWrite` first. */
  async function intercepting<T>(
    matches: (command: unknown) => boolean,
    onWrite: (attempt: number, send: () => Promise<unknown>) => Promise<unknown>,
    act: () => Promise<T>,
  ): Promise<{ result: T; attempts: number }> {
    const client = ddb();
    const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
    let attempts = 0;
    const spy = vi
      .spyOn(client, 'send')
      .mockImplementation(((command: unknown) =>
        matches(command) ? onWrite(++attempts, () => send(command)) : send(command)) as never);
    try {
      return { result: await act(), attempts };
    } finally {
      spy.mockRestore();
    }
  }
  /** Runs `act` while the callback's grant transactions go through `onGrantWrite` first. */
  const interceptingGrantWrites = <T>(
    communityId: string,
    onGrantWrite: (attempt: number, send: () => Promise<unknown>) => Promise<unknown>,
    act: () => Promise<T>,
  ) => intercepting((command) => isGrantWrite(command, communityId), onGrantWrite, act);

  it("another account ends the first one's grant at X and frees it; the same account again ends nothing", async () => {
    const { key, community, account } = await connected();
    const [firstAccess, firstRefresh] = x.issued().slice(-2);
    const other = newAccount();
    expect((await authorize(key, community.id, other.id)).status).toBe(200);
    const [access, refresh] = x.issued().slice(-2);
    expect(revoked()).toEqual([
      [firstRefresh, 'refresh_token'],
      [firstAccess, 'access_token'],
    ]);
    expect((await getXAccount(community.id))?.accountId).toBe(other.id);
    expect(x.liveRefreshTokens()).toContain(refresh);
    // The first account is free: another community connects it.
    const elsewhere = await xCommunity();
    expect((await authorize(elsewhere.key, elsewhere.community.id, account.id)).status).toBe(200);

    // The same account authorized again: X may end every grant of the account with an old one, so none is ended.
    x.reset();
    expect((await authorize(key, community.id, other.id)).status).toBe(200);
    expect(revoked()).toEqual([]);
    expect(x.liveRefreshTokens()).toEqual(expect.arrayContaining([refresh, x.issued().at(-1)]));
    expect(access).not.toBe(x.issued().at(-2));
  });

  it("two accounts authorized at once: the one bound last keeps the community, the other's tokens end at X", async () => {
    const { key, community } = await xCommunity();
    const [first, second] = [newAccount(), newAccount()];
    let secondPage: Awaited<ReturnType<typeof authorize>> | undefined;
    const { result: firstPage } = await interceptingGrantWrites(
      community.id,
      async (attempt, send) => {
        // The second account's whole callback runs while the first one's grant is on its way to the table.
        if (attempt === 1) secondPage = await authorize(key, community.id, second.id);
        return send();
      },
      () => authorize(key, community.id, first.id),
    );
    expect([firstPage.status, secondPage?.status]).toEqual([409, 200]);
    expect(firstPage.text).toContain('Another X account was connected to this community at the same moment');
    // Issued in turn: the first account's code and pair, then the second's.
    const [firstAccess, firstRefresh, , secondRefresh] = x
      .issued()
      .filter((t) => /^x(at|rt)-/.test(t))
      .slice(-4);
    expect(revoked()).toEqual([
      [firstRefresh, 'refresh_token'],
      [firstAccess, 'access_token'],
    ]);
    // Binding, grant and poll list all name the second account.
    expect((await getXAccount(community.id))?.accountId).toBe(second.id);
    expect((await status(key, community.id)).platform.chat_id).toBe(second.id);
    expect((await getPolledCommunity('x', community.id))?.externalId).toBe(second.id);
    expect(x.liveRefreshTokens()).toContain(secondRefresh);
    expect(x.liveRefreshTokens()).not.toContain(firstRefresh);
  });

  it('two accounts at once, the first one listing itself for polls last: the poll list still names the bound account', async () => {
    const { key, community } = await xCommunity();
    const [first, second] = [newAccount(), newAccount()];
    const listsFirst = (command: unknown) =>
      command instanceof PutCommand &&
      command.input.Item?.entity === 'polledCommunity' &&
      command.input.Item?.externalId === first.id;
    const { result: firstPage } = await intercepting(
      listsFirst,
      async (attempt, send) => {
        // The second account binds the community and lists itself before the first one's entry lands.
        if (attempt === 1) expect((await authorize(key, community.id, second.id)).status).toBe(200);
        return send();
      },
      () => authorize(key, community.id, first.id),
    );
    expect(firstPage.status).toBe(409);
    expect((await status(key, community.id)).platform.chat_id).toBe(second.id);
    expect((await getPolledCommunity('x', community.id))?.externalId).toBe(second.id);
  });

  it('a refresh that replaces the grant while the callback writes: the tokens it stored are the ones ended', async () => {
    const { key, community } = await connected();
    await expireTokens(community.id);
    const other = newAccount();
    const { result: page, attempts } = await interceptingGrantWrites(
      community.id,
      async (attempt, send) => {
        // The first account's tokens are refreshed just before the callback's first write lands.
        if (attempt === 1) await xSession(community.id);
        return send();
      },
      () => authorize(key, community.id, other.id),
    );
    expect(page.status).toBe(200);
    expect(attempts).toBe(2);
    expect(x.refreshGrants()).toHaveLength(1);
    // Issued last: the new account's pair (the exchange), then the first account's refreshed pair.
    const [otherAccess, otherRefresh, refreshedAccess, refreshedRefresh] = x.issued().slice(-4);
    expect(revoked()).toEqual([
      [refreshedRefresh, 'refresh_token'],
      [refreshedAccess, 'access_token'],
    ]);
    expect(x.liveRefreshTokens()).toContain(otherRefresh);
    expect(otherAccess).toMatch(/^xat-/);
    expect((await getXAccount(community.id))?.accountId).toBe(other.id);
  });

  it('a grant write that meets another write on the community at the same moment goes again, not a 500', async () => {
    const { key, community } = await xCommunity();
    const account = newAccount();
    const { result: page, attempts } = await interceptingGrantWrites(
      community.id,
      (attempt, send) =>
        attempt === 1
          ? Promise.reject(
              Object.assign(new Error('Transaction cancelled'), {
                name: 'TransactionCanceledException',
                CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
              }),
            )
          : send(),
      () => authorize(key, community.id, account.id),
    );
    expect(page.status).toBe(200);
    expect(attempts).toBe(2);
    expect((await getXAccount(community.id))?.accountId).toBe(account.id);
    expect(revoked()).toEqual([]);
  });
});

describe('moderating replies', () => {
  it('a scam reply is hidden and its author muted; a clean reply is left alone', async () => {
    const { key, community, account } = await connected();
    const spam = x.reply(account.username, { id: '9100001', username: 'scammer1' }, SCAM);
    const clean = x.reply(account.username, { id: '9100002', username: 'fan1' }, CLEAN);
    expect((await sync(key, community.id)).status).toBe(200);
    await settle();
    const search = x.calls.find((c) => c.path === '/2/tweets/search/recent')!;
    expect(search.query).toEqual({
      query: `to:${account.username} is:reply -from:${account.username}`,
      max_results: '100',
      expansions: 'author_id',
      'tweet.fields': 'author_id,created_at,conversation_id',
    });
    expect(actions()).toEqual([hide(spam), mute(account.id, '9100001')]);
    expect(x.isHidden(spam)).toBe(true);
    expect(x.isHidden(clean)).toBe(false);
    expect(x.mutedBy(account.id)).toEqual(['9100001']);
    const st = await status(key, community.id);
    expect(st.metrics).toMatchObject({ messages_scanned: 2, messages_flagged: 1, actions: { mute: 1 } });
    expect(st.audit_logs[0]).toMatchObject({
      event_id: spam,
      user_id: '9100001',
      username: 'scammer1',
      action: 'mute',
      delivery: { status: 'delivered', error: null },
    });
  });

  it('a re-poll reads from since_id, and replies read again are acted on once', async () => {
    const { key, community, account } = await connected();
    const spam = x.reply(account.username, { id: '9100011', username: 'scammer2' }, SHOUT);
    await sync(key, community.id);
    await settle();
    expect(actions()).toEqual([hide(spam)]);
    x.reset();
    await sync(key, community.id);
    await settle();
    expect(x.calls.find((c) => c.path === '/2/tweets/search/recent')!.query.since_id).toBe(spam);
    // The cursor lost: the same replies come back, nothing is acted on twice, nothing is counted twice.
    await putXCursor(community.id, {});
    await sync(key, community.id);
    await settle();
    expect(actions()).toEqual([]);
    expect((await status(key, community.id)).metrics).toMatchObject({ messages_scanned: 1, actions: { delete: 1 } });
  });

  it("a quiet account: a since_id older than recent search's seven days is moved up, not sent for X to refuse", async () => {
    const { key, community, account } = await connected();
    // The newest reply read is eight days old: nobody replied since.
    const stale = snowflakeAt(Date.now() - 8 * 24 * 60 * 60 * 1000);
    await putXCursor(community.id, { sinceId: stale, paging: { nextToken: 'of-the-old-search', newestId: stale } });
    const spam = x.reply(account.username, { id: '9100015', username: 'scammer_late' }, SHOUT);
    expect((await sync(key, community.id)).status).toBe(200);
    await settle();
    const search = x.calls.find((c) => c.path === '/2/tweets/search/recent')!;
    expect(search.query.next_token).toBeUndefined();
    expect(BigInt(search.query.since_id)).toBeGreaterThan(BigInt(stale));
    expect(BigInt(search.query.since_id)).toBeLessThan(BigInt(spam));
    expect(actions()).toEqual([hide(spam)]);
    expect(await getXCursor(community.id)).toEqual({ sinceId: spam });
  });

  it('a ban hides and mutes, and every later reply of that author is hidden', async () => {
    const { key, community, account } = await connected();
    const author = { id: '9100021', username: 'repeat_scammer' };
    const first = x.reply(account.username, author, SCAM);
    await sync(key, community.id);
    await settle();
    const second = x.reply(account.username, author, 'Connect your wallet to claim the bonus');
    await sync(key, community.id);
    await settle();
    const later = x.reply(account.username, author, CLEAN);
    const someoneElse = x.reply(account.username, { id: '9100022', username: 'fan2' }, CLEAN);
    await sync(key, community.id);
    await settle();
    expect(actions()).toEqual([
      hide(first),
      mute(account.id, author.id),
      hide(second),
      mute(account.id, author.id),
      hide(later),
    ]);
    expect(x.isHidden(someoneElse)).toBe(false);
    expect((await status(key, community.id)).audit_logs.map((e: { action: string }) => e.action)).toEqual([
      'ban',
      'mute',
    ]);
  });

  it('observe mode records the decision and sends nothing to X', async () => {
    const { key, community, account } = await connected();
    await call('PUT', `${BASE}/communities/${community.id}/rules`, { key, body: { mode: 'observe' } });
    x.reply(account.username, { id: '9100031', username: 'scammer3' }, SCAM);
    await sync(key, community.id);
    await settle();
    expect(actions()).toEqual([]);
    expect((await status(key, community.id)).audit_logs[0]).toMatchObject({
      action: 'mute',
      delivery: { status: 'observe' },
    });
  });

  it('whitelisted usernames are spared', async () => {
    const { key, community, account } = await connected();
    x.reply(account.username, { id: '9100041', username: 'acme_friend' }, SCAM);
    await sync(key, community.id);
    await settle();
    expect(actions()).toEqual([]);
    expect((await status(key, community.id)).metrics).toMatchObject({ messages_scanned: 1, messages_flagged: 0 });
  });

  it('undo shows the reply again and unmutes; after a ban is undone the author is no longer hidden', async () => {
    const { key, community, account } = await connected();
    const author = { id: '9100051', username: 'undo_me' };
    const first = x.reply(account.username, author, SCAM);
    await sync(key, community.id);
    await settle();
    const second = x.reply(account.username, author, 'Connect your wallet to claim the bonus');
    await sync(key, community.id);
    await settle();
    const [ban] = (await status(key, community.id)).audit_logs;
    expect(ban).toMatchObject({ event_id: second, action: 'ban' });
    x.reset();
    const undone = await call('POST', `${BASE}/communities/${community.id}/audit-logs/${ban.id}/undo`, { key });
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ audit_id: ban.id, action: 'ban', delivery: 'delivered', error: null });
    expect(actions()).toEqual([
      hide(second, false),
      { method: 'DELETE', path: `/2/users/${account.id}/muting/${author.id}`, body: undefined },
    ]);
    expect(x.isHidden(first)).toBe(true);
    expect(x.isHidden(second)).toBe(false);
    expect((await call('POST', `${BASE}/communities/${community.id}/audit-logs/${ban.id}/undo`, { key })).status).toBe(
      422,
    );
    // No longer banned: a clean reply stays visible.
    x.reset();
    const after = x.reply(account.username, author, CLEAN);
    await sync(key, community.id);
    await settle();
    expect(actions()).toEqual([]);
    expect(x.isHidden(after)).toBe(false);
  });
  it('undo of an events-endpoint entry whose ids are not X ids is a 422 that reaches nothing on X', async () => {
    const { key, community } = await connected();
    const event = {
      event_id: 'abc',
      type: 'message',
      user: { id: 'u1' },
      text: SCAM,
      sent_at: new Date().toISOString(),
    };
    await call('POST', `${BASE}/communities/${community.id}/events`, { key, body: { events: [event] } });
    const [entry] = (await status(key, community.id)).audit_logs;
    expect(entry).toMatchObject({ event_id: 'abc' });
    x.reset();
    const undone = await call('POST', `${BASE}/communities/${community.id}/audit-logs/${entry.id}/undo`, { key });
    expect(undone.status).toBe(422);
    expect(undone.body.error).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('Not an X') });
    expect(actions()).toEqual([]);
  });
});

describe('undoing a mute', () => {
  it('of an author who was never banned writes nothing, and the next polls still read and act', async () => {
    const { key, community, account } = await connected();
    const spam = x.reply(account.username, { id: '9100057', username: 'muted_once' }, SCAM);
    await sync(key, community.id);
    await settle();
    const [muted] = (await status(key, community.id)).audit_logs;
    expect(muted).toMatchObject({ event_id: spam, action: 'mute' });
    const undone = await call('POST', `${BASE}/communities/${community.id}/audit-logs/${muted.id}/undo`, { key });
    expect(undone.body).toMatchObject({ action: 'mute', delivery: 'delivered', error: null });
    // No banned-authors item where none was kept.
    const { Item } = await ddb().send(
      new GetCommand({ TableName: table(), Key: xBannedAuthorsKey(community.id), ConsistentRead: true }),
    );
    expect(Item).toBeUndefined();
    x.reset();
    const later = x.reply(account.username, { id: '9100058', username: 'scammer_after_undo' }, SCAM);
    const synced = await sync(key, community.id);
    expect(synced.body).toMatchObject({ connection_state: 'connected', connection_error: null });
    await settle();
    expect(x.isHidden(later)).toBe(true);
  });

  it('a key-only banned-authors item left by an earlier undo does not stop the polls', async () => {
    const { key, community, account } = await connected();
    await ddb().send(new PutCommand({ TableName: table(), Item: { ...xBannedAuthorsKey(community.id) } }));
    const spam = x.reply(account.username, { id: '9100059', username: 'scammer_old_item' }, SCAM);
    expect((await sync(key, community.id)).body.connection_state).toBe('connected');
    await settle();
    expect(x.isHidden(spam)).toBe(true);
  });
});

describe('a community whose polls fail', () => {
  it('says so in connection_state with the reason, and last_synced_at moves only on a successful poll', async () => {
    const { key, community, account } = await connected();
    const first = await sync(key, community.id);
    expect(first.body).toMatchObject({ connection_state: 'connected', connection_error: null });
    const syncedAt = first.body.last_synced_at;
    expect(syncedAt).toEqual(expect.any(String));
    // The account removes the app on X: the stored tokens stop working and X refuses the refresh token.
    x.revokeApp(account.id);
    const failed = await sync(key, community.id);
    expect(failed.status).toBe(200);
    expect(failed.body.connection_state).toBe('failing');
    expect(failed.body.connection_error).toMatch(/authorize again/);
    expect(failed.body.last_synced_at).toBe(syncedAt);
    expect(failed.body.status).toBe('connected');
    // The schedule's polls fail the same way, and the status says so between syncs too.
    await fanOutPolls();
    await settle();
    const between = await status(key, community.id);
    expect(between).toMatchObject({ connection_state: 'failing', last_synced_at: syncedAt });
    // Authorized again: the next poll reads, and the status is connected again.
    expect((await authorize(key, community.id, account.id)).status).toBe(200);
    const spam = x.reply(account.username, { id: '9100060', username: 'scammer_back' }, SCAM);
    const again = await sync(key, community.id);
    expect(again.body).toMatchObject({ connection_state: 'connected', connection_error: null });
    expect(Date.parse(again.body.last_synced_at)).toBeGreaterThan(Date.parse(syncedAt));
    await settle();
    expect(x.isHidden(spam)).toBe(true);
  });
});

describe('a mute decided for one account, sent after another was connected', () => {
  it('is refused by X rather than made by the account connected while it waited out a 429', async () => {
    const { key, community, account } = await connected();
    x.rateLimitNext(/\/muting$/, 2, 'POST');
    const spam = x.reply(account.username, { id: '9100095', username: 'scammer95' }, SCAM);
    await sync(key, community.id);
    for (let i = 0; i < 100 && !x.calls.some((c) => c.path.endsWith('/muting')); i++)
      await new Promise((r) => setTimeout(r, 25));
    const other = x.addAccount({ id: String(7_100_000 + ++accountNo), username: `acme_x${accountNo}` });
    expect((await authorize(key, community.id, other.id)).status).toBe(200);
    await settle();
    expect(x.mutedBy(other.id)).toEqual([]);
    // Both tries name the first account; the second, with the new account's token, is refused (403).
    expect(x.calls.filter((c) => c.path.endsWith('/muting')).map((c) => c.path)).toEqual([
      `/2/users/${account.id}/muting`,
      `/2/users/${account.id}/muting`,
    ]);
    const [entry] = (await status(key, community.id)).audit_logs;
    expect(entry).toMatchObject({ event_id: spam, delivery: { status: 'failed' } });
  });
});

describe('the minute schedule', () => {
  it('polls connected, paid X communities; suspended, expired and deleted ones are not read (X bills every read)', async () => {
    const live = await connected();
    const suspended = await connected();
    const expired = await connected();
    const deleted = await connected();
    const setBilling = (c: { user: { id: string }; community: { id: string } }, billingState: string) =>
      setCommunityFields(c.user.id, c.community.id, { billingState });
    await setBilling(suspended, 'suspended');
    await setBilling(expired, 'expired');
    expect((await call('DELETE', `${BASE}/communities/${deleted.community.id}`, { key: deleted.key })).status).toBe(
      204,
    );
    // The deleted community's grant is revoked at X and its tokens are gone.
    const revoked = x.calls.filter((c) => c.path === '/2/oauth2/revoke').map((c) => x.formOf(c));
    expect(revoked.map((f) => [f.token.slice(0, 4), f.token_type_hint])).toEqual([
      ['xrt-', 'refresh_token'],
      ['xat-', 'access_token'],
    ]);
    expect(revoked.every((f) => x.issued().includes(f.token))).toBe(true);
    expect(await getXAccount(deleted.community.id)).toBeUndefined();
    const spam = x.reply(live.account.username, { id: '9100081', username: 'scheduled_scammer' }, SHOUT);
    for (const c of [suspended, expired, deleted])
      x.reply(c.account.username, { id: '9100082', username: 'unread' }, SHOUT);
    await fanOutPolls();
    await settle();
    const searched = new Set(
      x.calls.filter((c) => c.path === '/2/tweets/search/recent').map((c) => c.query.query.split(' ')[0]),
    );
    expect(searched.has(`to:${live.account.username}`)).toBe(true);
    for (const c of [suspended, expired, deleted])
      expect(searched.has(`to:${c.account.username}`), c.account.username).toBe(false);
    expect(x.isHidden(spam)).toBe(true);
  });
});

describe("X's limits and tokens", () => {
  it("a 429 waits until x-rate-limit-reset, and the account's other hides wait for the same window without calling X", async () => {
    const { key, community, account } = await connected();
    x.rateLimitNext(/\/hidden$/, 3, 'PUT');
    const started = Date.now();
    const first = x.reply(account.username, { id: '9100061', username: 'loud1' }, SHOUT);
    await sync(key, community.id);
    // Wait for the first hide to meet the 429 before the second reply is read.
    for (let i = 0; i < 100 && !x.calls.some((c) => c.path.endsWith('/hidden')); i++)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    const second = x.reply(
      account.username,
      { id: '9100062', username: 'loud2' },
      'ANOTHER LOUD REPLY HERE, SUBSCRIBE',
    );
    await sync(key, community.id);
    const whileLimited = await status(key, community.id);
    expect(whileLimited.audit_logs.map((e: { delivery: { status: string } }) => e.delivery.status)).toEqual([
      'pending',
      'pending',
    ]);
    await settle();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    // One request met the 429; after the reset each reply is hidden once.
    expect(actions()).toEqual([hide(first), hide(first), hide(second)]);
    expect(
      (await status(key, community.id)).audit_logs.map((e: { delivery: { status: string } }) => e.delivery.status),
    ).toEqual(['delivered', 'delivered']);
  });

  it('two polls refreshing expired tokens at once spend the refresh token once, and both work', async () => {
    const { key, community } = await connected();
    await expireTokens(community.id);
    x.slowTokenEndpoint(400);
    const [a, b] = await Promise.all([sync(key, community.id), sync(key, community.id)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(x.refreshGrants()).toHaveLength(1);
    const searches = x.calls.filter((c) => c.path === '/2/tweets/search/recent');
    expect(searches).toHaveLength(2);
    expect(searches[0].authorization).toBe(searches[1].authorization);
    expect(searches.every((c) => c.authorization?.startsWith('Bearer xat-'))).toBe(true);
    expect((await getXAccount(community.id))!.refusedAt).toBeNull();
  });

  it('the key for sealing new tokens failing (KMS throttled) spends nothing at X: the next poll refreshes and reads', async () => {
    const { key, community, account } = await connected();
    await expireTokens(community.id);
    masterKey.failures = 1;
    const failed = await sync(key, community.id);
    expect(failed.status).toBe(200);
    expect(failed.body.connection_state).toBe('failing');
    // The refresh stopped before X was asked: the stored refresh token is still the live one.
    expect(x.refreshGrants()).toHaveLength(0);
    const spam = x.reply(account.username, { id: '9100071', username: 'scammer_kms' }, SCAM);
    const again = await sync(key, community.id);
    expect(again.body).toMatchObject({ connection_state: 'connected', connection_error: null });
    await settle();
    expect(x.refreshGrants()).toHaveLength(1);
    expect(x.isHidden(spam)).toBe(true);
    expect((await getXAccount(community.id))!.refusedAt).toBeNull();
  });

  it('an account renamed on X is searched under its new name from the next token refresh on', async () => {
    const { key, community, account } = await connected();
    const before = account.username;
    x.rename(account.id, `${before}_new`);
    const spam = x.reply(`${before}_new`, { id: '9100081', username: 'scammer8' }, SCAM);
    const searchedAs = () =>
      x.calls.filter((c) => c.path === '/2/tweets/search/recent').map((c) => c.query.query.split(' ')[0]);
    // Until the tokens are refreshed the stored name is searched, and the reply is not found under it.
    expect((await sync(key, community.id)).status).toBe(200);
    expect(searchedAs()).toEqual([`to:${before}`]);
    expect(x.isHidden(spam)).toBe(false);
    x.reset();
    await expireTokens(community.id);
    expect((await sync(key, community.id)).status).toBe(200);
    await settle();
    expect(x.refreshGrants()).toHaveLength(1);
    expect(searchedAs()).toEqual([`to:${before}_new`]);
    expect(x.isHidden(spam)).toBe(true);
    expect((await getXAccount(community.id))!.username).toBe(`${before}_new`);
  });

  it('a name read by a refresh never overwrites the one a newer authorization stored', async () => {
    const { key, community, account } = await connected();
    const first = `${account.username}_a`;
    const second = `${account.username}_b`;
    x.rename(account.id, first);
    await expireTokens(community.id);
    // The refresh reads the account as `first`; its answer arrives after the account was renamed again
    // and connected anew (whose callback reads `second`).
    const release = x.holdNextUsersMe();
    const refreshing = xSession(community.id);
    for (let i = 0; i < 200 && !x.calls.some((c) => c.path === '/2/users/me'); i++)
      await new Promise((r) => setTimeout(r, 25));
    x.rename(account.id, second);
    expect((await authorize(key, community.id, account.id)).status).toBe(200);
    expect((await getXAccount(community.id))!.username).toBe(second);
    release();
    await refreshing;
    expect((await getXAccount(community.id))!.username).toBe(second);
  });

  it('a refresh overtaken by a new authorization revokes the tokens X gave it, and only those', async () => {
    const { key, community, account } = await connected();
    await expireTokens(community.id);
    const before = x.issued().length;
    const release = x.holdTokenAnswers('refresh_token');
    const refreshing = xSession(community.id);
    for (let i = 0; i < 200 && !x.refreshGrants().length; i++) await new Promise((r) => setTimeout(r, 25));
    const [access, refresh] = x.issued().slice(before);
    expect((await authorize(key, community.id, account.id)).status).toBe(200);
    const [newAccess, newRefresh] = x.issued().slice(-2);
    release();
    expect((await refreshing).accessToken).toBe(newAccess);
    const revoked = x.calls.filter((c) => c.path === '/2/oauth2/revoke').map((c) => x.formOf(c));
    expect(revoked.map((f) => [f.token, f.token_type_hint])).toEqual([
      [refresh, 'refresh_token'],
      [access, 'access_token'],
    ]);
    expect(x.liveRefreshTokens()).toContain(newRefresh);
  });

  it('without the X app: no authorize_url, nothing polled, and planned X calls are recorded not_configured', async () => {
    const { key, user, community, account } = await connected();
    const spam = x.reply(account.username, { id: '9100071', username: 'scammer7' }, SCAM);
    delete process.env.X_CLIENT_SECRET;
    try {
      expect((await call('GET', `${BASE}/communities/${community.id}`, { key })).body.authorize_url).toBeNull();
      expect(await pollXCommunity((await getCommunity(user.id, community.id, true))!, PLATFORM_CORE)).toMatchObject({
        skipped: 'not_configured',
        pages: 0,
      });
      await scheduleDelivery({
        communityId: community.id,
        deliveryId: `test:${spam}`,
        purpose: 'delete',
        calls: [{ platform: 'x', method: 'PUT', route: `/2/tweets/${spam}/hidden`, body: { hidden: true } }],
        observe: false,
        queue: false,
      });
      expect(await runDelivery(community.id, `test:${spam}`)).toBe('not_configured');
      expect((await getDelivery(community.id, `test:${spam}`))!.error).toBe('x is not configured on this deployment');
      expect(x.calls).toEqual([]);
    } finally {
      process.env.X_CLIENT_SECRET = CLIENT.clientSecret;
    }
  });
});

describe('a community that stops being an X community', () => {
  const revokedHints = () =>
    x.calls.filter((c) => c.path === '/2/oauth2/revoke').map((c) => x.formOf(c).token_type_hint);

  it('lets go of the account when its type changes: the grant is revoked, the tokens gone, the account free', async () => {
    const { key, community, account } = await connected();
    const changed = await call('PUT', `${BASE}/communities/${community.id}`, { key, body: { type: 'crisp' } });
    expect(changed.status).toBe(200);
    expect(changed.body.status).toBe('pending_activation');
    expect(revokedHints()).toEqual(['refresh_token', 'access_token']);
    expect(await getXAccount(community.id)).toBeUndefined();
    // The owner's new X community can be given the same account (it was held by the old one before).
    const again = await call('POST', `${BASE}/communities`, {
      key,
      body: { name: 'Acme on X again', project_name: 'Acme', type: 'x' },
    });
    expect((await authorize(key, again.body.id, account.id)).status).toBe(200);
  });

  it('a community whose type was changed before still has its grant revoked when it is deleted', async () => {
    const { key, user, community } = await connected();
    // As a type change left it before the change let go of the account: the grant still stored.
    await setCommunityFields(user.id, community.id, { type: 'telegram_group' });
    expect((await call('DELETE', `${BASE}/communities/${community.id}`, { key })).status).toBe(204);
    expect(revokedHints()).toEqual(['refresh_token', 'access_token']);
    expect(await getXAccount(community.id)).toBeUndefined();
  });
});

describe('a community that goes away while its X account is being connected', () => {
  const tokenCallArrived = async () => {
    for (let i = 0; i < 200 && !x.calls.some((c) => c.path === '/2/oauth2/token'); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(x.calls.some((c) => c.path === '/2/oauth2/token')).toBe(true);
  };
  const revokedHints = () =>
    x.calls.filter((c) => c.path === '/2/oauth2/revoke').map((c) => x.formOf(c).token_type_hint);

  for (const [how, goAway, says] of [
    [
      'deleted',
      async (key: string, _userId: string, id: string) =>
        expect((await call('DELETE', `${BASE}/communities/${id}`, { key })).status).toBe(204),
      'no longer exists',
    ],
    [
      'expired',
      (_key: string, userId: string, id: string) => setCommunityFields(userId, id, { billingState: 'expired' }),
      'This community has expired',
    ],
  ] as const) {
    it(`${how} during the token exchange: the new grant is revoked, nothing of it kept, the account free`, async () => {
      const { key, user, community } = await xCommunity();
      const account = x.addAccount({ id: String(7_100_000 + ++accountNo), username: `acme_x${accountNo}` });
      const link = (await call('GET', `${BASE}/communities/${community.id}`, { key })).body.authorize_url;
      const release = x.holdTokenAnswers('authorization_code');
      const page = call('GET', x.authorize(link, account.id));
      await tokenCallArrived();
      await goAway(key, user.id, community.id);
      release();
      const answered = await page;
      expect(answered.status).toBe(400);
      expect(answered.text).toContain(says);
      expect(await getXAccount(community.id)).toBeUndefined();
      expect(revokedHints()).toEqual(['refresh_token', 'access_token']);
      // Nothing holds the account: another community of the owner connects it.
      const again = await call('POST', `${BASE}/communities`, {
        key,
        body: { name: 'Acme on X again', project_name: 'Acme', type: 'x' },
      });
      expect((await authorize(key, again.body.id, account.id)).status).toBe(200);
    });
  }
});

describe('a community that expires', () => {
  it('has its X grant revoked and its tokens deleted; one suspended keeps them for when it is paid', async () => {
    const expiring = await connected();
    const suspended = await connected();
    await setCommunityFields(expiring.user.id, expiring.community.id, { autoRenew: false });
    expect(await renewOnceDue(expiring.user.id, expiring.community.id)).toBe('expired');
    expect(x.calls.filter((c) => c.path === '/2/oauth2/revoke').map((c) => x.formOf(c).token_type_hint)).toEqual([
      'refresh_token',
      'access_token',
    ]);
    expect(await getXAccount(expiring.community.id)).toBeUndefined();
    x.reset();
    await setCommunityFields(suspended.user.id, suspended.community.id, { billingState: 'suspended' });
    await renewOnceDue(suspended.user.id, suspended.community.id);
    expect(x.calls.filter((c) => c.path === '/2/oauth2/revoke')).toEqual([]);
    expect((await getXAccount(suspended.community.id))?.accountId).toBe(suspended.account.id);
  });
});

describe('a community paid again after a suspension', () => {
  it('moderates no reply written while it was suspended: its search starts where it was paid', async () => {
    const { user, community, account } = await connected();
    x.reply(account.username, { id: '9100081', username: 'fan81' }, CLEAN);
    await pollXCommunity((await getCommunity(user.id, community.id, true))!, PLATFORM_CORE);
    await setCommunityFields(user.id, community.id, { billingState: 'suspended' });
    x.reply(account.username, { id: '9100082', username: 'scammer82' }, SCAM);
    expect(await renewOnceDue(user.id, community.id)).toBe('renewed');
    const resumedAt = (await getCommunity(user.id, community.id, true))?.resumedAt;
    expect(resumedAt).toEqual(expect.any(String));
    const since = x.reply(account.username, { id: '9100083', username: 'scammer83' }, SCAM);
    x.reset();
    await pollXCommunity((await getCommunity(user.id, community.id, true))!, PLATFORM_CORE);
    await settle();
    const searches = x.calls.filter((c) => c.path === '/2/tweets/search/recent');
    expect(searches.map((c) => c.query.since_id)).toEqual([snowflakeAt(Date.parse(resumedAt ?? ''))]);
    expect(actions()).toEqual([hide(since), mute(account.id, '9100083')]);
  });

  it('an account never read before moderates none of the replies written while it was suspended', async () => {
    const { user, community, account } = await connected();
    await setCommunityFields(user.id, community.id, { billingState: 'suspended' });
    const unpaid = x.reply(account.username, { id: '9100084', username: 'scammer84' }, SCAM);
    expect(await renewOnceDue(user.id, community.id)).toBe('renewed');
    const paid = x.reply(account.username, { id: '9100085', username: 'scammer85' }, SCAM);
    x.reset();
    await pollXCommunity((await getCommunity(user.id, community.id, true))!, PLATFORM_CORE);
    await settle();
    expect(actions()).toEqual([hide(paid), mute(account.id, '9100085')]);
    expect(x.isHidden(unpaid)).toBe(false);
  });

  it('a sweep that read the community before another sweep suspended it does not pay it as never suspended', async () => {
    const { user, community, account } = await connected();
    // A sweep lists the community while it is active and reaches it late; another sweep suspends it meanwhile.
    const listed = (await getCommunity(user.id, community.id, true))!;
    await setCommunityFields(user.id, community.id, {
      billingState: 'suspended',
      suspendedAt: new Date().toISOString(),
    });
    const unpaid = x.reply(account.username, { id: '9100087', username: 'scammer87' }, SCAM);
    expect(await renewCommunity(listed, new Date(Date.parse(listed.nextBillingAt!) + 60_000))).toBe('skipped');
    // The next sweep reads it suspended, and pays it as such.
    expect(await renewOnceDue(user.id, community.id)).toBe('renewed');
    expect((await getCommunity(user.id, community.id, true))?.resumedAt).toEqual(expect.any(String));
    x.reset();
    await pollXCommunity((await getCommunity(user.id, community.id, true))!, PLATFORM_CORE);
    await settle();
    expect(x.isHidden(unpaid)).toBe(false);
  });

  it('another account connected days after the payment is read from its newest page, not paged back to the payment', async () => {
    const { key, user, community } = await connected();
    const day = 24 * 60 * 60 * 1000;
    await setCommunityFields(user.id, community.id, { resumedAt: new Date(Date.now() - 3 * day).toISOString() });
    const other = x.addAccount({ id: String(7_100_000 + ++accountNo), username: `acme_x${accountNo}` });
    // Written to the other account two days ago, before it was connected here, then a page of newer replies.
    const before = x.reply(other.username, { id: '9100086', username: 'scammer86' }, SCAM, {
      id: snowflakeAt(Date.now() - 2 * day),
    });
    for (let i = 0; i < 100; i++) x.reply(other.username, { id: String(9_101_000 + i), username: `fan${i}` }, CLEAN);
    expect((await authorize(key, community.id, other.id)).status).toBe(200);
    x.reset();
    await pollXCommunity((await getCommunity(user.id, community.id, true))!, PLATFORM_CORE);
    await settle();
    const searches = x.calls.filter((c) => c.path === '/2/tweets/search/recent');
    expect(searches.map((c) => [c.query.since_id, c.query.next_token])).toEqual([[undefined, undefined]]);
    expect(x.isHidden(before)).toBe(false);
    expect(x.mutedBy(other.id)).toEqual([]);
  });
});

describe('a community that expired without letting go of its grant (the clean-up at expiry failed)', () => {
  it('has it revoked by the next minute poll, and leaves the list of polled communities', async () => {
    const { user, community } = await connected();
    const [access, refresh] = x.issued().slice(-2);
    await setCommunityFields(user.id, community.id, { billingState: 'expired' });
    expect(await getPolledCommunity('x', community.id)).toBeDefined();
    await fanOutPolls();
    await settle();
    const ended = x.calls
      .filter((c) => c.path === '/2/oauth2/revoke')
      .map((c) => [x.formOf(c).token, x.formOf(c).token_type_hint])
      .filter(([token]) => token === access || token === refresh);
    expect(ended).toEqual([
      [refresh, 'refresh_token'],
      [access, 'access_token'],
    ]);
    expect(await getXAccount(community.id)).toBeUndefined();
    expect(await getPolledCommunity('x', community.id)).toBeUndefined();
  });

  it('X limiting the revocation at expiry keeps the tokens, and the next minute poll revokes the grant', async () => {
    const { user, community } = await connected();
    const [access, refresh] = x.issued().slice(-2);
    await setCommunityFields(user.id, community.id, { autoRenew: false });
    x.rateLimitNext(/^\/2\/oauth2\/revoke$/, 60);
    expect(await renewOnceDue(user.id, community.id)).toBe('expired');
    expect(x.liveRefreshTokens()).toContain(refresh);
    expect((await getXAccount(community.id))?.accountId).toBeDefined();
    x.reset();
    await fanOutPolls();
    await settle();
    expect(x.liveRefreshTokens()).not.toContain(refresh);
    expect(x.calls.filter((c) => c.path === '/2/oauth2/revoke').some((c) => x.formOf(c).token === access)).toBe(true);
    expect(await getXAccount(community.id)).toBeUndefined();
    expect(await getPolledCommunity('x', community.id)).toBeUndefined();
  });
});

describe('a community that expires while its tokens are being refreshed', () => {
  it('has the grant X issued to that refresh revoked, not only the one it had read', async () => {
    const { user, community } = await connected();
    await setCommunityFields(user.id, community.id, { autoRenew: false });
    await expireTokens(community.id);
    x.reset();
    const before = x.issued().length;
    // X spends the refresh token and issues new tokens; its answer is still on the way.
    const release = x.holdTokenAnswers();
    const refreshing = xSession(community.id).catch(() => undefined);
    for (let i = 0; i < 200 && !x.refreshGrants().length; i++) await new Promise((r) => setTimeout(r, 25));
    expect(x.refreshGrants()).toHaveLength(1);
    const expiring = renewOnceDue(user.id, community.id);
    // Time for the expiry and its clean-up to reach X, before X's answer to the refresh arrives.
    for (let i = 0; i < 40 && !x.calls.some((call) => call.path === '/2/oauth2/revoke'); i++)
      await new Promise((r) => setTimeout(r, 25));
    release();
    expect(await expiring).toBe('expired');
    await refreshing;
    const [access, refresh] = x.issued().slice(before);
    const revoked = x.calls.filter((call) => call.path === '/2/oauth2/revoke').map((call) => x.formOf(call));
    expect(revoked.map((f) => [f.token, f.token_type_hint])).toEqual([
      [refresh, 'refresh_token'],
      [access, 'access_token'],
    ]);
    expect(x.liveRefreshTokens()).not.toContain(refresh);
    expect(await getXAccount(community.id)).toBeUndefined();
  });
});

describe('a community changed back to X while its old grant waits to be let go', () => {
  it('keeps the grant it was given since: the clean-up of the first change revokes nothing of it', async () => {
    const { key, user, community, account } = await connected();
    await expireTokens(community.id);
    // A refresh holds the lease (X has answered; the answer is on its way) while the owner changes the type.
    const release = x.holdTokenAnswers('refresh_token');
    const refreshing = xSession(community.id).catch(() => undefined);
    for (let i = 0; i < 200 && !x.refreshGrants().length; i++) await new Promise((r) => setTimeout(r, 25));
    const toCrisp = call('PUT', `${BASE}/communities/${community.id}`, { key, body: { type: 'crisp' } });
    for (let i = 0; i < 200 && (await getCommunity(user.id, community.id, true))?.type !== 'crisp'; i++)
      await new Promise((r) => setTimeout(r, 25));
    // ... and back to X, and the account is connected again.
    expect((await call('PUT', `${BASE}/communities/${community.id}`, { key, body: { type: 'x' } })).status).toBe(200);
    expect((await authorize(key, community.id, account.id)).status).toBe(200);
    const [access, refresh] = x.issued().slice(-2);
    release();
    expect((await toCrisp).status).toBe(200);
    await refreshing;
    const revoked = x.calls.filter((c) => c.path === '/2/oauth2/revoke').map((c) => x.formOf(c).token);
    expect(revoked).not.toContain(refresh);
    expect(revoked).not.toContain(access);
    expect(x.liveRefreshTokens()).toContain(refresh);
    expect((await getXAccount(community.id))?.accountId).toBe(account.id);
  });
});

describe('connecting the X account of a community that is not paid', () => {
  it('an expired community asks X for no token and binds nothing; a suspended one is bound and says moderation is off', async () => {
    for (const state of ['expired', 'suspended'] as const) {
      const { key, user, community } = await xCommunity();
      const account = x.addAccount({ id: String(7_100_000 + ++accountNo), username: `acme_x${accountNo}` });
      const link = (await call('GET', `${BASE}/communities/${community.id}`, { key })).body.authorize_url;
      await setCommunityFields(user.id, community.id, { billingState: state });
      const page = await call('GET', x.authorize(link, account.id));
      if (state === 'expired') {
        expect(page.status).toBe(400);
        expect(page.text).toContain('This community has expired and moderates nothing any more');
        expect(x.calls.filter((c) => c.path === '/2/oauth2/token')).toEqual([]);
        expect(await getXAccount(community.id)).toBeUndefined();
      } else {
        expect(page.status).toBe(200);
        expect(page.text).toContain(
          `@${account.username} is bound, but moderation is off while the community is suspended (its renewal is unpaid)`,
        );
        expect((await getXAccount(community.id))?.accountId).toBe(account.id);
      }
      x.reset();
    }
  });
});
