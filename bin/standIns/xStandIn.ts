/**
 * A recording stand-in for the X API v2 routes the service uses, speaking X's documented shapes:
 * the OAuth 2.0 token endpoint (authorization_code with PKCE S256, refresh_token; HTTP Basic client
 * credentials; refresh tokens rotate on every use and a spent one is refused with
 * `{"error": "invalid_request"}`), `GET /2/users/me`, `GET /2/tweets/search/recent` (`data`,
 * `includes.users`, `meta.newest_id/next_token`, `since_id`), `PUT /2/tweets/{id}/hidden`, muting
 * and unmuting, and `POST /2/oauth2/revoke`. Calls need `Authorization: Bearer <user access token>`; problems answer
 * `{title, detail, type, status}`; a scripted 429 carries `x-rate-limit-reset` (epoch seconds).
 * `authorize(url, account)` plays the person on X's consent screen and returns where X redirects; a browser
 * opening the authorize link (`GET /i/oauth2/authorize`) is redirected there as the account given to `signIn`.
 * Post ids are snowflakes of the moment they are written, as X's are, and recent search covers seven days:
 * a `since_id` made before then is refused with 400 Invalid Request, as X refuses it
 * (https://github.com/rooteco/tweetscape/issues/421).
 */
import { createHash, randomBytes } from 'node:crypto';
import { startJsonServer, type StandInAnswer } from './httpStandIn';

export interface XCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
  authorization: string | undefined;
}

interface Account {
  id: string;
  username: string;
  name: string;
}

interface Post {
  id: string;
  text: string;
  author_id: string;
  created_at: string;
  conversation_id: string;
  /** The id of the account replied to: the search's `to:` names it by its user name at the time of the search. */
  toId: string;
}

const REQUIRED_SCOPES = ['tweet.read', 'users.read', 'tweet.moderate.write', 'mute.write', 'offline.access'];
const ACCESS_SECONDS = 7200;

/** X's snowflakes: milliseconds since X's epoch above bit 22 (https://docs.x.com/fundamentals/x-ids). */
const X_EPOCH_MS = 1_288_834_974_657n;
const SEARCH_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
const snowflakeMs = (id: string) => Number((BigInt(id) >> 22n) + X_EPOCH_MS);
let snowflake = 0n;
/** A new id of this moment, above every id before it. */
const nextId = () => {
  const fromClock = (BigInt(Date.now()) - X_EPOCH_MS) << 22n;
  snowflake = fromClock > snowflake ? fromClock : snowflake + 1n;
  return String(snowflake);
};
const token = (prefix: string) => `${prefix}${randomBytes(18).toString('base64url')}`;
const problem = (status: number, title: string, detail: string): StandInAnswer => ({
  status,
  body: { title, detail, type: 'about:blank', status },
});
/** A promise that settles when `release` is called: an answer held while a test acts. */
function untilReleased(): { gate: Promise<void>; release: () => void } {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { gate, release };
}
const oauthError = (status: number, error: string, description: string): StandInAnswer => ({
  status,
  body: { error, error_description: description },
});

export async function startXStandIn(client: { clientId: string; clientSecret: string }) {
  const calls: XCall[] = [];
  const accounts = new Map<string, Account>();
  const codes = new Map<string, { accountId: string; challenge: string; redirectUri: string }>();
  const accessTokens = new Map<string, { accountId: string; expiresAtMs: number }>();
  /** The live refresh token of each grant; spent ones stay in `spent`. */
  const refreshTokens = new Map<string, string>();
  const spent = new Set<string>();
  const posts: Post[] = [];
  const hidden = new Map<string, boolean>();
  const muting = new Map<string, Set<string>>();
  const rateLimits: { method?: string; path: RegExp; resetInSeconds: number }[] = [];
  let tokenDelayMs = 0;
  /** While set, the token endpoint grants at once but its answer waits until it settles (`holdTokenAnswers`). */
  let answerGate: { gate: Promise<void>; grantType?: string; once?: boolean } | undefined;
  /** While set, the next `GET /2/users/me` is answered only once it settles (`holdNextUsersMe`). */
  let usersMeGate: Promise<void> | undefined;

  /** Every token and code handed out, so a test can look for them where they must not be. */
  const issued: string[] = [];
  const issue = (accountId: string) => {
    const access = token('xat-');
    const refresh = token('xrt-');
    issued.push(access, refresh);
    accessTokens.set(access, { accountId, expiresAtMs: Date.now() + ACCESS_SECONDS * 1000 });
    refreshTokens.set(refresh, accountId);
    return {
      token_type: 'bearer',
      expires_in: ACCESS_SECONDS,
      access_token: access,
      scope: REQUIRED_SCOPES.join(' '),
      refresh_token: refresh,
    };
  };

  const tokenEndpoint = async (authorization: string | undefined, raw: unknown): Promise<StandInAnswer> => {
    const basic = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
    if (authorization !== basic) return oauthError(401, 'unauthorized_client', 'Missing valid authorization header');
    const form = new URLSearchParams(typeof raw === 'string' ? raw : '');
    if (tokenDelayMs) await new Promise((resolve) => setTimeout(resolve, tokenDelayMs));
    if (form.get('grant_type') === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      if (!code) return oauthError(400, 'invalid_request', 'Value passed for the authorization code was invalid.');
      codes.delete(form.get('code')!);
      const challenge = createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url');
      if (challenge !== code.challenge || form.get('redirect_uri') !== code.redirectUri)
        return oauthError(400, 'invalid_request', 'Value passed for the authorization code was invalid.');
      return { status: 200, body: issue(code.accountId) };
    }
    if (form.get('grant_type') === 'refresh_token') {
      const old = form.get('refresh_token') ?? '';
      const accountId = refreshTokens.get(old);
      if (!accountId || spent.has(old))
        return oauthError(400, 'invalid_request', 'Value passed for the token was invalid.');
      refreshTokens.delete(old);
      spent.add(old);
      return { status: 200, body: issue(accountId) };
    }
    return oauthError(400, 'unsupported_grant_type', 'Grant type is not supported.');
  };

  /** X answers 200 `{revoked: true}` for any token it was sent, known or not. */
  const revoke = (authorization: string | undefined, raw: unknown): StandInAnswer => {
    const basic = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
    if (authorization !== basic) return oauthError(401, 'unauthorized_client', 'Missing valid authorization header');
    const t = new URLSearchParams(typeof raw === 'string' ? raw : '').get('token') ?? '';
    accessTokens.delete(t);
    if (refreshTokens.delete(t)) spent.add(t);
    return { status: 200, body: { revoked: true } };
  };

  const search = (query: URLSearchParams): StandInAnswer => {
    const match = /^to:(\w{1,15}) is:reply -from:(\w{1,15})$/.exec(query.get('query') ?? '');
    const max = Number(query.get('max_results') ?? 10);
    if (!match || !(max >= 10 && max <= 100))
      return {
        status: 400,
        body: {
          errors: [{ message: 'Invalid query or max_results' }],
          title: 'Invalid Request',
          detail: 'One or more parameters to your request was invalid.',
          type: 'https://api.twitter.com/2/problems/invalid-request',
        },
      };
    const [, to, notFrom] = match;
    const toId = accountNamed(to)?.id;
    const since = query.get('since_id');
    const oldest = Date.now() - SEARCH_WINDOW_MS;
    if (since && (!/^\d{1,19}$/.test(since) || snowflakeMs(since) < oldest))
      return {
        status: 400,
        body: {
          errors: [
            {
              parameters: { since_id: [since] },
              message: `Invalid 'since_id':'${since}'. 'since_id' must be a tweet id created after ${new Date(oldest).toISOString()}.`,
            },
          ],
          title: 'Invalid Request',
          detail: 'One or more parameters to your request was invalid.',
          type: 'https://api.twitter.com/2/problems/invalid-request',
        },
      };
    const before = query.get('next_token') ? Buffer.from(query.get('next_token')!, 'base64url').toString() : undefined;
    const authorName = (id: string) =>
      [...accounts.values()].find((a) => a.id === id)?.username ?? authors.get(id)?.username;
    const matching = posts
      .filter((p) => p.toId === toId && authorName(p.author_id)?.toLowerCase() !== notFrom.toLowerCase())
      .filter((p) => !since || BigInt(p.id) > BigInt(since))
      .filter((p) => !before || BigInt(p.id) < BigInt(before))
      .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
    const page = matching.slice(0, max);
    if (page.length === 0) return { status: 200, body: { meta: { result_count: 0 } } };
    const users = [...new Set(page.map((p) => p.author_id))].map((id) => authors.get(id)!).filter(Boolean);
    return {
      status: 200,
      body: {
        data: page.map((p) => ({
          id: p.id,
          text: p.text,
          edit_history_tweet_ids: [p.id],
          author_id: p.author_id,
          created_at: p.created_at,
          conversation_id: p.conversation_id,
        })),
        includes: { users },
        meta: {
          newest_id: page[0].id,
          oldest_id: page[page.length - 1].id,
          result_count: page.length,
          ...(matching.length > max ? { next_token: Buffer.from(page[page.length - 1].id).toString('base64url') } : {}),
        },
      },
    };
  };
  const authors = new Map<string, Account>();
  /** X's user names are unique whatever their case. */
  const accountNamed = (username: string) =>
    [...accounts.values()].find((a) => a.username.toLowerCase() === username.toLowerCase());

  /**
   * The person on X approving the app: checks the authorize URL as X would and answers the
   * redirect X sends the browser to (with `code` and `state`).
   */
  function authorize(url: string, accountId: string): string {
    const u = new URL(url);
    const q = u.searchParams;
    if (u.origin + u.pathname !== `${server.url}/i/oauth2/authorize`)
      throw new Error(`Not X's authorize endpoint: ${u.origin}${u.pathname}`);
    if (
      q.get('client_id') !== client.clientId ||
      q.get('response_type') !== 'code' ||
      q.get('code_challenge_method') !== 'S256' ||
      !q.get('code_challenge') ||
      !q.get('state') ||
      !q.get('redirect_uri')
    ) {
      throw new Error(`X would refuse this authorize URL: ${url}`);
    }
    const scopes = (q.get('scope') ?? '').split(' ');
    for (const s of REQUIRED_SCOPES) if (!scopes.includes(s)) throw new Error(`Scope ${s} missing from ${url}`);
    const code = token('code-');
    issued.push(code);
    codes.set(code, { accountId, challenge: q.get('code_challenge')!, redirectUri: q.get('redirect_uri')! });
    const back = new URL(q.get('redirect_uri')!);
    back.searchParams.set('state', q.get('state')!);
    back.searchParams.set('code', code);
    return back.toString();
  }

  /** Who is signed in to X in the browser that opens an authorize link (`signIn`); nobody at first. */
  let signedIn: string | undefined;

  const server = await startJsonServer(async (req) => {
    // The consent page a browser opens (not an API call, so not recorded): the signed-in account
    // approves at once and X redirects back with `code` and `state`, as `authorize` does.
    if (req.method === 'GET' && req.path === '/i/oauth2/authorize') {
      if (!signedIn) return problem(401, 'Unauthorized', 'Sign in to X first.');
      try {
        return { status: 302, headers: { location: authorize(`${server.url}${req.path}?${req.query}`, signedIn) } };
      } catch (err) {
        return problem(400, 'Invalid Request', (err as Error).message);
      }
    }
    calls.push({
      method: req.method,
      path: req.path,
      query: Object.fromEntries(req.query),
      body: req.body,
      authorization: req.headers.authorization,
    });
    const limit = rateLimits.findIndex((r) => r.path.test(req.path) && (!r.method || r.method === req.method));
    if (limit >= 0) {
      const [{ resetInSeconds }] = rateLimits.splice(limit, 1);
      return {
        ...problem(429, 'Too Many Requests', 'Too Many Requests'),
        headers: {
          'x-rate-limit-limit': '50',
          'x-rate-limit-remaining': '0',
          'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + resetInSeconds),
        },
      };
    }
    if (req.path === '/2/oauth2/token' && req.method === 'POST')
      return tokenEndpoint(req.headers.authorization, req.body).then(async (answer) => {
        const grantType = new URLSearchParams(typeof req.body === 'string' ? req.body : '').get('grant_type');
        const held = answerGate;
        if (held && (!held.grantType || held.grantType === grantType)) {
          if (held.once) answerGate = undefined;
          await held.gate;
        }
        return answer;
      });
    if (req.path === '/2/oauth2/revoke' && req.method === 'POST') return revoke(req.headers.authorization, req.body);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const session = bearer ? accessTokens.get(bearer) : undefined;
    if (!session || session.expiresAtMs <= Date.now()) return problem(401, 'Unauthorized', 'Unauthorized');
    const me = accounts.get(session.accountId)!;
    const parts = req.path.split('/').filter(Boolean);
    if (req.method === 'GET' && req.path === '/2/users/me') {
      // The account as it is when the request arrives, even when the answer is held.
      const answer = { status: 200, body: { data: { ...me } } };
      const held = usersMeGate;
      usersMeGate = undefined;
      return held ? held.then(() => answer) : answer;
    }
    if (req.method === 'GET' && req.path === '/2/tweets/search/recent') return search(req.query);
    if (
      req.method === 'PUT' &&
      parts[0] === '2' &&
      parts[1] === 'tweets' &&
      parts[3] === 'hidden' &&
      parts.length === 4
    ) {
      const post = posts.find((p) => p.id === parts[2]);
      if (!post)
        return {
          status: 200,
          body: {
            errors: [
              {
                value: parts[2],
                detail: `Could not find tweet with id: [${parts[2]}].`,
                title: 'Not Found Error',
                resource_type: 'tweet',
                parameter: 'id',
                resource_id: parts[2],
                type: 'https://api.twitter.com/2/problems/resource-not-found',
              },
            ],
          },
        };
      if (post.toId !== me.id)
        return problem(
          403,
          'Forbidden',
          'You attempted to hide a Tweet you cannot hide. Conversation must be started by you.',
        );
      if (typeof req.body?.hidden !== 'boolean')
        return problem(400, 'Invalid Request', 'One or more parameters to your request was invalid.');
      hidden.set(post.id, req.body.hidden);
      return { status: 200, body: { data: { hidden: req.body.hidden } } };
    }
    if (parts[0] === '2' && parts[1] === 'users' && parts[3] === 'muting') {
      if (parts[2] !== me.id) return problem(403, 'Forbidden', 'You are not allowed to mute on behalf of this user.');
      const set = muting.get(me.id) ?? new Set<string>();
      muting.set(me.id, set);
      if (req.method === 'POST' && parts.length === 4 && typeof req.body?.target_user_id === 'string') {
        set.add(req.body.target_user_id);
        return { status: 200, body: { data: { muting: true } } };
      }
      if (req.method === 'DELETE' && parts.length === 5) {
        set.delete(parts[4]);
        return { status: 200, body: { data: { muting: false } } };
      }
    }
    return problem(404, 'Not Found Error', 'Sorry, that page does not exist.');
  });

  return {
    apiBase: server.url,
    authorizeUrl: `${server.url}/i/oauth2/authorize`,
    calls,
    addAccount: (account: { id: string; username: string; name?: string }) => {
      const a = { name: account.username, ...account };
      accounts.set(a.id, a);
      authors.set(a.id, a);
      return a;
    },
    authorize,
    /** The account takes a new user name, as X lets it (its replies are then found under that name only). */
    rename: (accountId: string, username: string) => {
      const account = accounts.get(accountId);
      if (!account) throw new Error(`No account ${accountId} on the X stand-in`);
      account.username = username;
    },
    /** The account a browser opening an authorize link is signed in as (it then approves at once). */
    signIn: (accountId: string) => {
      signedIn = accountId;
    },
    /** Someone replies to `to` (the moderated account's user name now) in a conversation it started. */
    reply(to: string, author: { id: string; username: string }, text: string, options: { id?: string } = {}): string {
      if (!authors.has(author.id)) authors.set(author.id, { name: author.username, ...author });
      const toId = accountNamed(to)?.id;
      if (!toId) throw new Error(`No account is named ${to} on the X stand-in`);
      const id = options.id ?? nextId();
      posts.push({
        id,
        text,
        author_id: author.id,
        created_at: new Date().toISOString(),
        conversation_id: '1850000000000000000',
        toId,
      });
      return id;
    },
    isHidden: (postId: string) => hidden.get(postId) === true,
    issued: () => [...issued],
    mutedBy: (accountId: string) => [...(muting.get(accountId) ?? [])],
    /** Every access token stops working (as if two hours had passed): the next call must refresh. */
    expireAccessTokens: () => {
      for (const t of accessTokens.values()) t.expiresAtMs = 0;
    },
    /** The refresh_token grants X received, and how many it accepted. */
    refreshGrants: () =>
      calls.filter(
        (c) =>
          c.path === '/2/oauth2/token' && new URLSearchParams(String(c.body)).get('grant_type') === 'refresh_token',
      ),
    formOf: (call: XCall) => Object.fromEntries(new URLSearchParams(String(call.body))),
    slowTokenEndpoint: (ms: number) => (tokenDelayMs = ms),
    /**
     * X grants (a refresh token is spent, new tokens issued) but every answer (of `grantType` only, when
     * given; only the next one with `once`) is held until the returned function is called: the answer is
     * still on its way while the service does something else (or never arrives, as to a worker that died).
     */
    holdTokenAnswers: (
      grantType?: 'refresh_token' | 'authorization_code',
      options: { once?: boolean } = {},
    ): (() => void) => {
      const held = untilReleased();
      answerGate = { gate: held.gate, ...(grantType ? { grantType } : {}), ...(options.once ? { once: true } : {}) };
      return () => {
        answerGate = undefined;
        held.release();
      };
    },
    /** The next `GET /2/users/me` is read at once but answered only when the returned function is called. */
    holdNextUsersMe: (): (() => void) => {
      const held = untilReleased();
      usersMeGate = held.gate;
      return held.release;
    },
    /** The account removes the app in its X settings: every token X gave for it stops working. */
    revokeApp: (accountId: string) => {
      for (const [t, session] of accessTokens) if (session.accountId === accountId) accessTokens.delete(t);
      for (const [t, owner] of refreshTokens)
        if (owner === accountId) {
          refreshTokens.delete(t);
          spent.add(t);
        }
    },
    /** Refresh tokens X would still accept: grants not revoked nor spent. */
    liveRefreshTokens: () => [...refreshTokens.keys()],
    rateLimitNext: (path: RegExp, resetInSeconds: number, method?: string) =>
      rateLimits.push({ path, resetInSeconds, method }),
    /** Calls other than the token endpoint and users/me. */
    actions: () =>
      calls.filter(
        (c) => !c.path.startsWith('/2/oauth2/') && c.path !== '/2/users/me' && c.path !== '/2/tweets/search/recent',
      ),
    reset: () => {
      calls.length = 0;
      rateLimits.length = 0;
      tokenDelayMs = 0;
    },
    close: server.close,
  };
}
