/**
 * A recording stand-in for the parts of Reddit's API the service uses (https://www.reddit.com/dev/api,
 * https://github.com/reddit-archive/reddit/wiki/OAuth2), on two servers like Reddit's own:
 * - auth (`www.reddit.com`): `POST /api/v1/access_token`, HTTP Basic client id:secret, form
 *   `grant_type=refresh_token&refresh_token=...`, answered `{access_token, token_type, expires_in, scope}`
 *   (a wrong refresh token is a 200 `{"error": "invalid_grant"}`, wrong client credentials a 401);
 * - api (`oauth.reddit.com`): `Authorization: bearer <token>` required (401 otherwise); listings
 *   `{kind: "Listing", data: {after, before, children: [{kind: "t3"|"t1"|"t4", data}]}}`, newest first
 *   and paged with `after`; `/r/{sub}/about/moderators` as a UserList; form-encoded POST bodies,
 *   recorded as parsed forms; refusals as a 200 with `json.errors`; every answer carries
 *   `X-Ratelimit-Used/Remaining/Reset` from a window that can be scripted, and a 429 can be scripted.
 */
import { startJsonServer, type StandInAnswer } from './httpStandIn';

export interface RedditCall {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The form-encoded body, parsed. */
  form: Record<string, string>;
  authorization: string | undefined;
  userAgent: string | undefined;
  /** Epoch milliseconds the call arrived (the benchmark's latency). */
  at: number;
}

export interface RedditStandInOptions {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** The operator's bot account. */
  botUsername: string;
  /** Seconds an access token lives (Reddit: 3600). */
  tokenLifetime?: number;
}

interface Item {
  kind: 't3' | 't1';
  data: Record<string, any>;
}

interface Subreddit {
  name: string;
  moderators: string[];
  invitePending: boolean;
  banned: Map<string, Record<string, string>>;
}

/** Ids are base 36 and grow with time, as Reddit's do. */
let nextId = parseInt('1a00000', 36);
const newId = () => {
  nextId += 1;
  return nextId.toString(36);
};

export async function startRedditStandIn(options: RedditStandInOptions) {
  const calls: RedditCall[] = [];
  const tokenRequests: { authorization: string | undefined; form: Record<string, string> }[] = [];
  const validTokens = new Set<string>();
  const subreddits = new Map<string, Subreddit>();
  const items: Item[] = [];
  const inbox: { kind: 't1' | 't4'; data: Record<string, any> }[] = [];
  const modmail: Record<string, string>[] = [];
  /** Items Reddit leaves out of its listings' pages (deleted, or filtered after the page was cut): `after` still counts them. */
  const hidden = new Set<string>();
  const rateLimits: { path: RegExp; resetSeconds: number }[] = [];
  const refusals: { path: RegExp; errors: string[][]; ratelimit?: number }[] = [];
  /** Calls held until `count` of them have arrived, then answered together (a race made certain). */
  // A gather that does not fill within GATHER_WAIT_MS answers what it holds, so a race that did not
  // happen fails its own test's assertions rather than holding calls of the tests after it.
  const GATHER_WAIT_MS = 5_000;
  const gathers: { path: RegExp; count: number; waiting: (() => void)[]; timer?: NodeJS.Timeout }[] = [];
  const releaseGather = (gather: (typeof gathers)[number]) => {
    clearTimeout(gather.timer);
    const at = gathers.indexOf(gather);
    if (at >= 0) gathers.splice(at, 1);
    for (const release of gather.waiting.splice(0)) release();
  };
  const gathered = (path: string): Promise<void> | undefined => {
    const gather = gathers.find((g) => g.path.test(path));
    if (!gather) return undefined;
    return new Promise((resolve) => {
      gather.waiting.push(resolve);
      gather.timer ??= setTimeout(() => releaseGather(gather), GATHER_WAIT_MS);
      if (gather.waiting.length >= gather.count) releaseGather(gather);
    });
  };
  /** Reddit's window: requests left and when it ends (the Reset header counts down to it). */
  const rate = { used: 0, remaining: 600, endsAt: Date.now() + 600_000 };
  const windowNow = () => {
    if (Date.now() >= rate.endsAt) Object.assign(rate, { used: 0, remaining: 600, endsAt: Date.now() + 600_000 });
    return rate;
  };
  const resetSeconds = () => Math.max(0, Math.ceil((rate.endsAt - Date.now()) / 1000));
  let tokenCount = 0;
  /** Client ids accepted with options.clientSecret (tests give each budget a client id of its own). */
  const clientIds = new Set([options.clientId]);

  const sub = (name: string) => subreddits.get(name.toLowerCase());
  const findItem = (fullname: string) => items.find((i) => i.data.name === fullname);
  const rateHeaders = () => ({
    'x-ratelimit-used': String(rate.used),
    'x-ratelimit-remaining': `${rate.remaining}.0`,
    'x-ratelimit-reset': String(resetSeconds()),
  });
  const jsonOk = (data?: unknown): StandInAnswer => ({
    status: 200,
    body: { json: { errors: [], ...(data === undefined ? {} : { data }) } },
  });
  const refused = (code: string, message: string, field = ''): StandInAnswer => ({
    status: 200,
    body: { json: { errors: [[code, message, field]] } },
  });

  const auth = await startJsonServer((req) => {
    const form = parseForm(req.body);
    tokenRequests.push({ authorization: req.headers.authorization, form });
    if (req.method !== 'POST' || req.path !== '/api/v1/access_token')
      return { status: 404, body: { message: 'Not Found', error: 404 } };
    const basic = /^Basic (\S+)$/.exec(req.headers.authorization ?? '');
    const [id, secret] = basic ? Buffer.from(basic[1], 'base64').toString().split(':') : [];
    if (!clientIds.has(id) || secret !== options.clientSecret)
      return { status: 401, body: { message: 'Unauthorized', error: 401 } };
    if (form.grant_type !== 'refresh_token' || form.refresh_token !== options.refreshToken)
      return { status: 200, body: { error: 'invalid_grant' } };
    const token = `reddit-access-${++tokenCount}`;
    validTokens.add(token);
    return {
      status: 200,
      body: { access_token: token, token_type: 'bearer', expires_in: options.tokenLifetime ?? 3600, scope: '*' },
    };
  });

  const api = await startJsonServer(async (req) => {
    const form = parseForm(req.body);
    const bearer = /^bearer (\S+)$/.exec(req.headers.authorization ?? '');
    calls.push({
      method: req.method,
      path: req.path,
      query: Object.fromEntries(req.query),
      form,
      authorization: req.headers.authorization,
      userAgent: req.headers['user-agent'],
      at: Date.now(),
    });
    if (!bearer || !validTokens.has(bearer[1])) return { status: 401, body: { message: 'Unauthorized', error: 401 } };
    const limit = rateLimits.findIndex((r) => r.path.test(req.path));
    if (limit >= 0) {
      const [{ resetSeconds }] = rateLimits.splice(limit, 1);
      return {
        status: 429,
        headers: {
          'x-ratelimit-used': String(rate.used),
          'x-ratelimit-remaining': '0.0',
          'x-ratelimit-reset': String(resetSeconds),
        },
        body: { message: 'Too Many Requests', error: 429 },
      };
    }
    await gathered(req.path);
    windowNow();
    rate.used += 1;
    rate.remaining = Math.max(0, rate.remaining - 1);
    const answer = route(req.method, req.path, Object.fromEntries(req.query), form);
    return { ...answer, headers: { ...rateHeaders(), ...(answer.headers ?? {}) } };
  });

  function route(
    method: string,
    path: string,
    query: Record<string, string>,
    form: Record<string, string>,
  ): StandInAnswer {
    const refusal = refusals.findIndex((r) => r.path.test(path));
    if (refusal >= 0 && method === 'POST') {
      const [{ errors, ratelimit }] = refusals.splice(refusal, 1);
      return { status: 200, body: { json: { errors, ...(ratelimit !== undefined ? { ratelimit } : {}) } } };
    }
    const listing = /^\/r\/([A-Za-z0-9_+]+)\/(new|comments)$/.exec(path);
    if (method === 'GET' && listing) {
      const names = new Set(listing[1].split('+').map((n) => n.toLowerCase()));
      const kind = listing[2] === 'new' ? 't3' : 't1';
      const all = items
        .filter((i) => i.kind === kind && names.has(String(i.data.subreddit).toLowerCase()))
        .sort((a, b) => parseInt(b.data.id, 36) - parseInt(a.data.id, 36));
      const listed = page(all, query);
      return {
        status: 200,
        body: {
          ...listed,
          data: { ...listed.data, children: listed.data.children.filter((c) => !hidden.has(c.data.name)) },
        },
      };
    }
    if (method === 'GET' && path === '/api/info') {
      const ids = (query.id ?? '').split(',');
      const children = ids.map((id) => findItem(id)).filter((i): i is Item => i !== undefined);
      return { status: 200, body: { kind: 'Listing', data: { after: null, before: null, children } } };
    }
    const banned = /^\/r\/([A-Za-z0-9_]+)\/about\/banned$/.exec(path);
    if (method === 'GET' && banned) {
      const s = sub(banned[1]);
      if (!s) return { status: 404, body: { message: 'Not Found', error: 404 } };
      const bans = [...s.banned.values()].filter(
        (b) => !query.user || b.name.toLowerCase() === query.user.toLowerCase(),
      );
      return {
        status: 200,
        body: {
          kind: 'UserList',
          data: {
            after: null,
            before: null,
            // Reddit shows the ban's reason and note as one `note`.
            children: bans.map((b) => ({
              name: b.name,
              id: 't2_banned',
              date: 1_700_000_000,
              days_left: null,
              rel_id: 'rb_1',
              note: [b.ban_reason, b.note].filter((p) => p).join(': '),
            })),
          },
        },
      };
    }
    const moderators = /^\/r\/([A-Za-z0-9_]+)\/about\/moderators$/.exec(path);
    if (method === 'GET' && moderators) {
      const s = sub(moderators[1]);
      if (!s) return { status: 404, body: { message: 'Not Found', error: 404 } };
      return {
        status: 200,
        body: {
          kind: 'UserList',
          data: {
            children: s.moderators.map((name, i) => ({
              name,
              id: `t2_mod${i}`,
              date: 1_700_000_000,
              mod_permissions: ['all'],
            })),
          },
        },
      };
    }
    if (method === 'GET' && path === '/message/unread') {
      return {
        status: 200,
        body: page(
          inbox.filter((m) => m.data.new),
          query,
        ),
      };
    }
    if (method !== 'POST') return { status: 404, body: { message: 'Not Found', error: 404 } };
    if (path === '/api/read_message') {
      for (const id of (form.id ?? '').split(',')) {
        const message = inbox.find((m) => m.data.name === id);
        if (message) message.data.new = false;
      }
      return { status: 200, body: {} };
    }
    const inSub = /^\/r\/([A-Za-z0-9_]+)\/api\/(accept_moderator_invite|friend|unfriend)$/.exec(path);
    if (inSub) {
      const s = sub(inSub[1]);
      if (!s) return refused('SUBREDDIT_NOEXIST', "that subreddit doesn't exist", 'sr_name');
      if (inSub[2] === 'accept_moderator_invite') {
        if (!s.invitePending) return refused('NO_INVITE_FOUND', 'there is no pending invite for that subreddit');
        s.invitePending = false;
        if (!s.moderators.some((m) => m.toLowerCase() === options.botUsername.toLowerCase()))
          s.moderators.push(options.botUsername);
        return jsonOk();
      }
      if (!isModerator(s)) return { status: 403, body: { message: 'Forbidden', error: 403 } };
      if (form.type !== 'banned' || !form.name) return refused('BAD_TYPE', 'invalid type', 'type');
      if (inSub[2] === 'friend') s.banned.set(form.name.toLowerCase(), form);
      else s.banned.delete(form.name.toLowerCase());
      return inSub[2] === 'friend' ? jsonOk() : { status: 200, body: {} };
    }
    if (path === '/api/remove' || path === '/api/approve') {
      const item = findItem(form.id ?? '');
      if (!item) return { status: 404, body: { message: 'Not Found', error: 404 } };
      if (!isModerator(sub(item.data.subreddit)!)) return { status: 403, body: { message: 'Forbidden', error: 403 } };
      if (path === '/api/remove')
        Object.assign(item.data, {
          banned_by: options.botUsername,
          approved_by: null,
          removed: true,
          spam: form.spam === 'true',
        });
      else Object.assign(item.data, { approved_by: options.botUsername, banned_by: null, removed: false });
      return { status: 200, body: {} };
    }
    if (path === '/api/comment') {
      const parent = findItem(form.thing_id ?? '');
      if (!parent) return refused('NO_THING_ID', 'no thing_id', 'parent');
      const comment = addItem('t1', parent.data.subreddit, {
        author: options.botUsername,
        body: form.text,
        link_id: parent.kind === 't3' ? parent.data.name : parent.data.link_id,
        parent_id: parent.data.name,
      });
      return jsonOk({ things: [comment] });
    }
    if (path === '/api/distinguish') {
      const item = findItem(form.id ?? '');
      if (!item) return refused('NO_THING_ID', 'no thing_id', 'id');
      item.data.distinguished = form.how === 'no' ? null : 'moderator';
      return jsonOk({ things: [item] });
    }
    if (path === '/api/mod/conversations') {
      if (!form.srName || !form.subject || !form.body)
        return {
          status: 400,
          body: { fields: ['body'], explanation: 'This field is required', message: 'Bad Request', reason: 'NO_TEXT' },
        };
      modmail.push(form);
      const id = newId();
      return {
        status: 201,
        body: {
          conversation: { id, subject: form.subject, isInternal: true },
          messages: { [id]: { body: form.body } },
        },
      };
    }
    return { status: 404, body: { message: 'Not Found', error: 404 } };
  }

  const isModerator = (s: Subreddit) => s.moderators.some((m) => m.toLowerCase() === options.botUsername.toLowerCase());

  /** Newest first, `limit` at a time, after the item named by `after`. */
  function page<T extends { data: Record<string, any> }>(all: T[], query: Record<string, string>) {
    const start = query.after ? all.findIndex((i) => i.data.name === query.after) + 1 : 0;
    const limit = Math.min(100, Number(query.limit ?? 25));
    const children = all.slice(start, start + limit);
    const more = start + limit < all.length;
    return {
      kind: 'Listing',
      data: {
        after: more && children.length ? children[children.length - 1].data.name : null,
        before: null,
        dist: children.length,
        children,
      },
    };
  }

  function addItem(kind: 't3' | 't1', subreddit: string, fields: Record<string, any>): Item {
    const id = newId();
    const s = sub(subreddit);
    const item: Item = {
      kind,
      data: {
        id,
        name: `${kind}_${id}`,
        subreddit: s?.name ?? subreddit,
        created_utc: Math.floor(Date.now() / 1000),
        approved_by: null,
        banned_by: null,
        distinguished: null,
        permalink: `/r/${subreddit}/comments/${id}/`,
        ...fields,
      },
    };
    items.push(item);
    return item;
  }

  return {
    apiBase: api.url,
    authBase: auth.url,
    calls,
    tokenRequests,
    modmail,
    addClientId: (id: string) => clientIds.add(id),
    /** A subreddit whose moderators are `moderators` and that has (or has not) invited the bot. */
    addSubreddit(name: string, moderators: string[], invitePending = true) {
      subreddits.set(name.toLowerCase(), { name, moderators: [...moderators], invitePending, banned: new Map() });
    },
    /** A new post; answers its fullname. */
    post(subreddit: string, author: string, title: string, selftext = '', extra: Record<string, any> = {}) {
      return addItem('t3', subreddit, { author, title, selftext, is_self: true, ...extra }).data.name as string;
    },
    /** A new comment on a post; answers its fullname. */
    comment(subreddit: string, author: string, body: string, linkId?: string, extra: Record<string, any> = {}) {
      return addItem('t1', subreddit, { author, body, link_id: linkId ?? null, ...extra }).data.name as string;
    },
    /** A private message to the bot; answers its fullname. */
    privateMessage(author: string, body: string, subject = 'activation') {
      const id = newId();
      inbox.push({
        kind: 't4',
        data: {
          id,
          name: `t4_${id}`,
          author,
          body,
          subject,
          dest: options.botUsername,
          new: true,
          was_comment: false,
          created_utc: Math.floor(Date.now() / 1000),
        },
      });
      return `t4_${id}`;
    },
    /** A reply to one of the bot's comments, as Reddit puts it in the bot's inbox; answers its fullname. */
    commentReply(subreddit: string, author: string, body: string) {
      const id = newId();
      inbox.push({
        kind: 't1',
        data: {
          id,
          name: `t1_${id}`,
          author,
          body,
          subreddit,
          new: true,
          was_comment: true,
          created_utc: Math.floor(Date.now() / 1000),
        },
      });
      return `t1_${id}`;
    },
    item: (fullname: string) => findItem(fullname)?.data,
    moderatorsOf: (name: string) => sub(name)?.moderators ?? [],
    bannedIn: (name: string) => [...(sub(name)?.banned.keys() ?? [])],
    /** A ban a human moderator placed (or placed again) in Reddit's own tools. */
    banByHand(name: string, username: string, reason: string) {
      sub(name)?.banned.set(username.toLowerCase(), { type: 'banned', name: username, ban_reason: reason });
    },
    /** Reddit leaves these items out of its listings (their slots still count for `after`). */
    hideFromListings: (...fullnames: string[]) => {
      for (const f of fullnames) hidden.add(f);
    },
    unreadCount: () => inbox.filter((m) => m.data.new).length,
    /** The bot's operator reads everything left unread (a test leaves the inbox as it found it). */
    markAllRead: () => {
      for (const m of inbox) m.data.new = false;
    },
    /** The window every answer reports in its X-Ratelimit headers (`used`: spent of it already). */
    setRate(remaining: number, resetSeconds: number, used = 0) {
      Object.assign(rate, { used, remaining, endsAt: Date.now() + resetSeconds * 1000 });
    },
    rateLimitNext: (path: RegExp, resetSeconds: number) => rateLimits.push({ path, resetSeconds }),
    /** The next POST to a matching path answers 200 with these `json.errors`. */
    refuseNext: (path: RegExp, errors: string[][], ratelimit?: number) =>
      refusals.push({ path, errors, ...(ratelimit !== undefined ? { ratelimit } : {}) }),
    /** The next `count` calls to a matching path wait for one another and are answered together. */
    gatherNext: (path: RegExp, count: number) => gathers.push({ path, count, waiting: [] }),
    /** Every access token stops working (Reddit expired or revoked them). */
    expireTokens: () => validTokens.clear(),
    reset() {
      calls.length = 0;
      tokenRequests.length = 0;
    },
    async close() {
      await api.close();
      await auth.close();
    },
  };
}

export type RedditStandIn = Awaited<ReturnType<typeof startRedditStandIn>>;

function parseForm(body: unknown): Record<string, string> {
  if (typeof body === 'string') return Object.fromEntries(new URLSearchParams(body));
  // A form whose text happens to parse as JSON (a bare number) is still a form.
  if (typeof body === 'number') return Object.fromEntries(new URLSearchParams(String(body)));
  return {};
}
