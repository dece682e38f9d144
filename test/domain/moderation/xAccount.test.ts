/**
 * An X account given to a community: the authorize URL, the callback's code exchange with the PKCE
 * verifier, sealed tokens, single-use expiring states, and refreshes under the lease (two workers,
 * one refresh-token use), against the recording stand-in and DynamoDB Local.
 */
import { createHash } from 'node:crypto';
import { PLATFORM_CORE } from '#shared/domain/moderation/platformCore';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#shared/adapters/clock';
import { ephemeralEncryption } from '#shared/adapters/encryption';
import { installPorts, ports } from '#shared/adapters/ports';
import { installLocalPorts } from '#bin/local/runtime';
import { XApi } from '#shared/platforms/x/api';
import { createAccount } from '#shared/domain/accounts/accounts';
import { provisionCommunity } from '#shared/domain/moderation/communities';
import { updatePlatformRecord } from '#shared/store/platformRepo';
import { completeXAuthorization, xAuthorizeUrl, type BindXAccount } from '#shared/platforms/x/oauth';
import { asXAccount, REFRESH_LEASE_MS, xSession, XSessionUnavailable } from '#shared/platforms/x/tokens';
import { getCommunity } from '#shared/store/communitiesRepo';
import { ddb, table } from '#shared/store/client';
import { xTokensKey } from '#shared/store/keys';
import { getXAccount } from '#shared/platforms/x/xRepo';
import { uuidv7 } from '#shared/ids';
import { startXStandIn } from '#bin/standIns/xStandIn';

const CLIENT = { clientId: 'x-client-id-123', clientSecret: 'x-client-secret-456' };
const x = await startXStandIn(CLIENT);
const saved = { ...process.env };
Object.assign(process.env, {
  X_CLIENT_ID: CLIENT.clientId,
  X_CLIENT_SECRET: CLIENT.clientSecret,
  X_API_BASE: x.apiBase,
  X_AUTHORIZE_URL: x.authorizeUrl,
});
const clock = new ManualClock();
installLocalPorts(clock, { realDns: false });
// A key of this file's own (the local runtime keeps one beside its data).
installPorts({ encryption: ephemeralEncryption() });
afterAll(async () => {
  for (const name of ['X_CLIENT_ID', 'X_CLIENT_SECRET', 'X_API_BASE', 'X_AUTHORIZE_URL']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await x.close();
});
beforeEach(() => {
  x.reset();
  clock.set(new Date());
});

const API_BASE = 'https://api.example.test/api/v1';
const bound: { communityId: string; accountId: string }[] = [];
// Records the binding and names the account in the community's record, as a binding does (the grant is
// written only while the record names its account).
const bind: BindXAccount = async (community, account) => {
  bound.push({ communityId: community.id, accountId: account.id });
  await updatePlatformRecord(community.id, { boundId: account.id });
  return { ok: true };
};

async function xCommunity() {
  const { user } = await createAccount({ email: `x-${uuidv7()}@example.com`, tier: 'developer', credits: 1000 });
  const view = await provisionCommunity(user.id, { name: 'Acme on X', project_name: 'Acme', type: 'x' });
  return (await getCommunity(user.id, view.id, true))!;
}

let accountNo = 0;
async function connected() {
  const community = await xCommunity();
  const account = x.addAccount({ id: String(4_000_000 + ++accountNo), username: `acme_${accountNo}` });
  const url = (await xAuthorizeUrl(community, API_BASE))!;
  const back = new URL(x.authorize(url, account.id));
  const result = await completeXAuthorization(
    { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! },
    PLATFORM_CORE,
    bind,
  );
  expect(result.status).toBe(200);
  return { community, account, url, back };
}

const bearerOf = (call: { authorization?: string }) => call.authorization!.replace(/^Bearer /, '');

describe('authorize_url', () => {
  it('is the OAuth 2.0 code URL with PKCE S256, our callback and the five scopes', async () => {
    const community = await xCommunity();
    const url = new URL((await xAuthorizeUrl(community, `${API_BASE}/`))!);
    expect(`${url.origin}${url.pathname}`).toBe(x.authorizeUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: CLIENT.clientId,
      redirect_uri: `${API_BASE}/integrations/moderation/x/callback`,
      scope: 'tweet.read users.read tweet.moderate.write mute.write offline.access',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    // Spaces in scope are %20, as X's documentation writes them.
    expect(url.search).toContain('scope=tweet.read%20users.read');
  });

  it('each call mints a new state; none for other types or without the X app', async () => {
    const community = await xCommunity();
    const a = new URL((await xAuthorizeUrl(community, API_BASE))!).searchParams.get('state');
    const b = new URL((await xAuthorizeUrl(community, API_BASE))!).searchParams.get('state');
    expect(a).not.toBe(b);
    expect(await xAuthorizeUrl({ ...community, type: 'reddit' }, API_BASE)).toBeNull();
    delete process.env.X_CLIENT_SECRET;
    try {
      expect(await xAuthorizeUrl(community, API_BASE)).toBeNull();
    } finally {
      process.env.X_CLIENT_SECRET = CLIENT.clientSecret;
    }
  });
});

describe('the callback', () => {
  it('exchanges the code with the verifier, reads the account, seals the tokens and binds', async () => {
    const { community, account, url } = await connected();
    const exchange = x.calls.find((c) => c.path === '/2/oauth2/token')!;
    const form = x.formOf(exchange);
    expect(Object.keys(form).sort()).toEqual(['code', 'code_verifier', 'grant_type', 'redirect_uri']);
    expect(form).toMatchObject({
      grant_type: 'authorization_code',
      redirect_uri: `${API_BASE}/integrations/moderation/x/callback`,
    });
    expect(createHash('sha256').update(form.code_verifier).digest('base64url')).toBe(
      new URL(url).searchParams.get('code_challenge'),
    );
    expect(exchange.authorization).toBe(
      `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString('base64')}`,
    );
    const me = x.calls.find((c) => c.path === '/2/users/me')!;
    expect(me.method).toBe('GET');
    expect(bound.at(-1)).toEqual({ communityId: community.id, accountId: account.id });

    const stored = await getXAccount(community.id);
    expect(stored).toMatchObject({ accountId: account.id, username: account.username, version: 1, refusedAt: null });
    // Neither token is anywhere in the stored item.
    const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: xTokensKey(community.id) }));
    const raw = JSON.stringify(Item);
    expect(raw).not.toContain(bearerOf(me));
    expect(raw).not.toContain('xrt-');
    expect(raw).not.toContain('xat-');
    const opened = JSON.parse(await ports().encryption.open(stored!.sealed, `x-tokens:${community.id}`));
    expect(opened.access_token).toBe(bearerOf(me));
    expect(opened.refresh_token).toMatch(/^xrt-/);
    // Sealed for this community only.
    await expect(ports().encryption.open(stored!.sealed, 'x-tokens:another-community')).rejects.toThrow();
  });

  it('a used state is 400, and so is an unknown one; neither reaches X', async () => {
    const { back } = await connected();
    x.reset();
    const again = await completeXAuthorization(
      { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! },
      PLATFORM_CORE,
      bind,
    );
    expect(again).toMatchObject({ status: 400, message: expect.stringContaining('already used') });
    const unknown = await completeXAuthorization({ code: 'c', state: 'not-a-state-we-issued' }, PLATFORM_CORE, bind);
    expect(unknown).toMatchObject({ status: 400, message: expect.stringContaining('not one we issued') });
    expect(await completeXAuthorization({ code: 'c' }, PLATFORM_CORE, bind)).toMatchObject({ status: 400 });
    expect(x.calls).toEqual([]);
  });

  it('a state past its hour is 400 expired', async () => {
    const community = await xCommunity();
    const account = x.addAccount({ id: '4999001', username: 'late_acme' });
    const back = new URL(x.authorize((await xAuthorizeUrl(community, API_BASE))!, account.id));
    clock.advance(61 * 60 * 1000);
    const late = await completeXAuthorization(
      { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! },
      PLATFORM_CORE,
      bind,
    );
    expect(late).toMatchObject({ status: 400, message: expect.stringContaining('expired') });
    expect(x.calls).toEqual([]);
    expect(await getXAccount(community.id)).toBeUndefined();
  });

  it('a declined authorization uses up the state and connects nothing', async () => {
    const community = await xCommunity();
    const state = new URL((await xAuthorizeUrl(community, API_BASE))!).searchParams.get('state')!;
    expect(await completeXAuthorization({ state, error: 'access_denied' }, PLATFORM_CORE, bind)).toMatchObject({
      status: 400,
      title: 'Authorization declined',
    });
    expect(await getXAccount(community.id)).toBeUndefined();
  });

  it('a code X refuses is 400 and stores nothing', async () => {
    const community = await xCommunity();
    const state = new URL((await xAuthorizeUrl(community, API_BASE))!).searchParams.get('state')!;
    expect(await completeXAuthorization({ state, code: 'forged-code' }, PLATFORM_CORE, bind)).toMatchObject({
      status: 400,
    });
    expect(x.formOf(x.calls.find((c) => c.path === '/2/oauth2/token')!)).toMatchObject({
      grant_type: 'authorization_code',
      code: 'forged-code',
    });
    expect(await getXAccount(community.id)).toBeUndefined();
  });
});

describe('sessions and refresh', () => {
  it('a live token is used as it is', async () => {
    const { community, account } = await connected();
    x.reset();
    const session = await xSession(community.id);
    expect(session).toMatchObject({ accountId: account.id, username: account.username });
    expect(x.calls).toEqual([]);
  });

  it('two workers refreshing at once spend the refresh token once, and both get working tokens', async () => {
    const { community } = await connected();
    x.reset();
    x.expireAccessTokens();
    clock.advance(2 * 60 * 60 * 1000);
    x.slowTokenEndpoint(400);
    const [a, b] = await Promise.all([xSession(community.id), xSession(community.id)]);
    expect(x.refreshGrants()).toHaveLength(1);
    expect(a.accessToken).toBe(b.accessToken);
    const api = new XApi(x.apiBase);
    expect(await api.request(a.accessToken, { method: 'GET', route: '/2/users/me' })).toMatchObject({ ok: true });
    expect((await getXAccount(community.id))!.version).toBe(2);
  });

  it('X rotates refresh tokens: the spent one is refused, and a refused refresh asks for a new authorization', async () => {
    const { community } = await connected();
    const before = JSON.parse(
      await ports().encryption.open((await getXAccount(community.id))!.sealed, `x-tokens:${community.id}`),
    );
    x.expireAccessTokens();
    clock.advance(2 * 60 * 60 * 1000);
    await xSession(community.id);
    const api = new XApi(x.apiBase);
    expect(
      await api.token(CLIENT.clientId, CLIENT.clientSecret, {
        grant_type: 'refresh_token',
        refresh_token: before.refresh_token,
      }),
    ).toMatchObject({
      ok: false,
      status: 400,
      error: expect.stringContaining('invalid_request'),
    });

    // Someone else spends the live refresh token: our next refresh is refused and remembered.
    const now = JSON.parse(
      await ports().encryption.open((await getXAccount(community.id))!.sealed, `x-tokens:${community.id}`),
    );
    expect(
      (
        await api.token(CLIENT.clientId, CLIENT.clientSecret, {
          grant_type: 'refresh_token',
          refresh_token: now.refresh_token,
        })
      ).ok,
    ).toBe(true);
    x.expireAccessTokens();
    clock.advance(2 * 60 * 60 * 1000);
    await expect(xSession(community.id)).rejects.toMatchObject({ reason: 'refused' });
    expect((await getXAccount(community.id))!.refusedAt).not.toBeNull();
    x.reset();
    await expect(xSession(community.id)).rejects.toBeInstanceOf(XSessionUnavailable);
    expect(x.calls).toEqual([]);
  });

  it('a refresh that stopped after X rotated the tokens: the next one says so, and its answer arriving late is kept', async () => {
    const { community } = await connected();
    x.expireAccessTokens();
    clock.advance(2 * 60 * 60 * 1000);
    // X spends the refresh token and issues new ones, but its answer does not reach this worker (as if it died).
    const release = x.holdTokenAnswers('refresh_token', { once: true });
    const stopped = xSession(community.id);
    for (let i = 0; i < 200 && !x.refreshGrants().length; i++) await new Promise((r) => setTimeout(r, 25));
    expect((await getXAccount(community.id))!.refreshStartedAt).not.toBeNull();
    // Its lease runs out; the next poll finds the refresh unfinished, and X refuses the token it left.
    clock.advance(REFRESH_LEASE_MS + 1000);
    await expect(xSession(community.id)).rejects.toMatchObject({
      reason: 'refused',
      message: expect.stringContaining('stopped before storing what X answered'),
    });
    expect((await getXAccount(community.id))!.refusedReason).toContain('stopped before storing');
    // Later polls, which ask X nothing more, say the same.
    await expect(xSession(community.id)).rejects.toMatchObject({
      message: expect.stringContaining('stopped before storing'),
    });
    // The answer was only late (a frozen worker): the tokens X gave it are the live ones, and are kept.
    release();
    await stopped;
    const session = await xSession(community.id);
    expect(
      await new XApi(x.apiBase).request(session.accessToken, { method: 'GET', route: '/2/users/me' }),
    ).toMatchObject({ ok: true });
    expect(await getXAccount(community.id)).toMatchObject({ refusedAt: null, refreshStartedAt: null });
  });

  it('a 401 on a token that had not expired refreshes once and repeats the call', async () => {
    const { community } = await connected();
    x.expireAccessTokens();
    x.reset();
    const out = await asXAccount(community.id, (s) =>
      new XApi(x.apiBase).request(s.accessToken, { method: 'GET', route: '/2/users/me' }),
    );
    expect(out).toMatchObject({ ok: true });
    // The call, the refresh and the refresh's read of the account's current name, then the call again.
    expect(x.calls.map((c) => c.path)).toEqual(['/2/users/me', '/2/oauth2/token', '/2/users/me', '/2/users/me']);
  });

  it('a community nobody authorized has no session', async () => {
    const community = await xCommunity();
    await expect(xSession(community.id)).rejects.toMatchObject({ reason: 'not_authorized' });
  });
});
