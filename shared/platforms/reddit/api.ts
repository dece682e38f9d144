/**
 * Reddit's OAuth API over fetch, as the operator's bot account (a "script" app with a permanent
 * refresh token). https://github.com/reddit-archive/reddit/wiki/OAuth2 and https://www.reddit.com/dev/api
 *
 * - The access token comes from `POST {auth}/api/v1/access_token` (HTTP Basic client id:secret, form
 *   `grant_type=refresh_token&refresh_token=...`) and is kept per process until shortly before it
 *   expires; a 401 from the API drops it and the call is tried once more with a fresh one.
 * - Every call carries `Authorization: bearer <token>` and the configured User-Agent (Reddit blocks
 *   generic ones); POST bodies are form-encoded with `api_type=json`.
 * - A 200 whose `json.errors` is not empty is a failure (Reddit's way of refusing a form).
 * - One client id has one request budget for the whole deployment: every call first takes one request
 *   from the shared budget (the table), and every answer's `X-Ratelimit-Remaining`/`X-Ratelimit-Reset`
 *   refills it. A spent budget or a 429 comes back as `retryAfterSeconds`, never as a wait in here.
 */
import { createHash } from 'node:crypto';
import { CALL_TIMEOUT_MS, networkFailure, type CallOutcome } from '#shared/platforms/result';

export interface RedditConfig {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  userAgent: string;
  apiBase: string;
  authBase: string;
}

/** Where the deployment's shared request budget lives (budgetRepo.ts beside it). */
export interface RedditRateBudget {
  /**
   * Takes one request, keeping `reserve` requests for others, and at least `share` of the window's size
   * (a fraction, 0 to 1); or says how long until one is free.
   */
  take(reserve: number, share?: number, fair?: boolean): Promise<{ ok: true } | { ok: false; waitSeconds: number }>;
  /**
   * What Reddit said after a call: requests left in its window, seconds until the window resets, and
   * requests spent of it (Reddit's window is 600 s long and its size is its own: used plus remaining).
   */
  observe(remaining: number, resetSeconds: number, used?: number): Promise<void>;
}

/** A budget that never says no (a bench or a one-off script with a client id of its own). */
export const UNLIMITED_BUDGET: RedditRateBudget = { take: async () => ({ ok: true }), observe: async () => undefined };

/** Seconds before the stated expiry at which a token is renewed (a call in flight must not carry a dead one). */
const EXPIRY_MARGIN_SECONDS = 60;
/** Reddit's answer to a 429 usually says when the window resets; without it, a minute. */
const DEFAULT_WAIT_SECONDS = 60;

interface CachedToken {
  token: string;
  expiresAt: number;
}

/** Per process: one token (or one refresh in flight) per app and refresh token. */
const tokens = new Map<string, Promise<CachedToken | CallOutcome>>();

const tokenKey = (c: RedditConfig) =>
  createHash('sha256').update(`${c.authBase}\n${c.clientId}\n${c.refreshToken}`).digest('hex');

/** Forgets every cached access token (tests that restart Reddit's stand-in). */
export const forgetRedditTokens = (): void => tokens.clear();

export interface RedditCallOptions {
  /** Requests to leave in the shared budget for others (polling leaves room for actions). */
  reserve?: number;
  /** A share of the window's size (0 to 1) to leave for others, whatever size Reddit gives the window. */
  keepShare?: number;
  /**
   * False: taken outside the caller's fair share of the window (the budget's own rule): for a call that
   * saves requests, such as marking read the inbox messages already handled.
   */
  fair?: boolean;
}

export class RedditApi {
  constructor(
    private readonly config: RedditConfig,
    private readonly budget: RedditRateBudget = UNLIMITED_BUDGET,
  ) {}

  get(path: string, query: Record<string, string> = {}, options: RedditCallOptions = {}): Promise<CallOutcome> {
    // raw_json=1: text fields as written, not HTML-escaped.
    const search = new URLSearchParams({ ...query, raw_json: '1' });
    return this.request('GET', `${path}?${search}`, undefined, options);
  }

  post(path: string, form: Record<string, string>, options: RedditCallOptions = {}): Promise<CallOutcome> {
    return this.request('POST', path, new URLSearchParams({ api_type: 'json', ...form }).toString(), options);
  }

  private async request(
    method: 'GET' | 'POST',
    pathAndQuery: string,
    form: string | undefined,
    options: RedditCallOptions,
    retried = false,
  ): Promise<CallOutcome> {
    const label = `${method} ${pathAndQuery.split('?')[0]}`;
    const token = await this.accessToken();
    if ('ok' in token) return token;
    const allowed = await this.budget.take(options.reserve ?? 0, options.keepShare ?? 0, options.fair ?? true);
    if (!allowed.ok)
      return {
        ok: false,
        status: 429,
        error: `${label}: the deployment's Reddit request budget is spent`,
        retryAfterSeconds: allowed.waitSeconds,
      };
    let response: Response;
    try {
      response = await fetch(`${this.config.apiBase.replace(/\/$/, '')}${pathAndQuery}`, {
        method,
        headers: {
          authorization: `bearer ${token.token}`,
          'user-agent': this.config.userAgent,
          ...(form !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: form,
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (err) {
      return networkFailure(err);
    }
    const text = await response.text();
    const rate = rateOf(response.headers);
    if (rate) await this.budget.observe(rate.remaining, rate.resetSeconds, rate.used);
    if (response.status === 401 && !retried) {
      tokens.delete(tokenKey(this.config));
      return this.request(method, pathAndQuery, form, options, true);
    }
    const json = text ? safeJson(text) : undefined;
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get('retry-after'));
      const seconds =
        rate?.resetSeconds ?? (Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : DEFAULT_WAIT_SECONDS);
      return {
        ok: false,
        status: 429,
        error: `${label}: rate limited by Reddit`,
        retryAfterSeconds: Math.max(1, Math.ceil(seconds)),
      };
    }
    if (!response.ok)
      return { ok: false, status: response.status, error: `${label}: ${errorText(json) ?? `HTTP ${response.status}`}` };
    const refused = formErrors(json);
    if (refused) return { ...refused, error: `${label}: ${refused.error}` };
    return { ok: true, result: json ?? null };
  }

  private async accessToken(): Promise<CachedToken | CallOutcome> {
    const key = tokenKey(this.config);
    const cached = tokens.get(key);
    if (cached) {
      const value = await cached;
      if (!('ok' in value) && value.expiresAt > Date.now()) return value;
      if (tokens.get(key) === cached) tokens.delete(key);
      // Another caller may already have started the next refresh.
      const next = tokens.get(key);
      if (next) return next;
    }
    const refresh = this.fetchToken();
    tokens.set(key, refresh);
    const value = await refresh;
    // A failure is answered to everyone who waited on it, then forgotten so the next call tries again.
    if ('ok' in value && tokens.get(key) === refresh) tokens.delete(key);
    return value;
  }

  private async fetchToken(): Promise<CachedToken | CallOutcome> {
    const { clientId, clientSecret, refreshToken, authBase, userAgent } = this.config;
    let response: Response;
    try {
      response = await fetch(`${authBase.replace(/\/$/, '')}/api/v1/access_token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
          'user-agent': userAgent,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (err) {
      return networkFailure(err);
    }
    const json = safeJson(await response.text()) as
      | { access_token?: unknown; expires_in?: unknown; error?: unknown }
      | undefined;
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get('retry-after'));
      return {
        ok: false,
        status: 429,
        error: 'Reddit access token: rate limited',
        retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : DEFAULT_WAIT_SECONDS,
      };
    }
    // Reddit answers a bad refresh token with 200 {"error": "invalid_grant"}, bad client credentials with 401.
    if (!response.ok || typeof json?.access_token !== 'string') {
      const reason = typeof json?.error === 'string' ? json.error : `HTTP ${response.status}`;
      return {
        ok: false,
        status: response.ok ? 401 : response.status,
        error: `Reddit refused the operator's credentials (${reason})`,
      };
    }
    const lifetime = typeof json.expires_in === 'number' ? json.expires_in : 3600;
    return { token: json.access_token, expiresAt: Date.now() + Math.max(0, lifetime - EXPIRY_MARGIN_SECONDS) * 1000 };
  }
}

/**
 * Reddit's rate headers: requests left (a float, "598.0"), whole seconds until the window resets and
 * requests used in it (left out when Reddit does not send it).
 */
function rateOf(headers: Headers): { remaining: number; resetSeconds: number; used?: number } | undefined {
  const remaining = Number(headers.get('x-ratelimit-remaining') ?? NaN);
  const resetSeconds = Number(headers.get('x-ratelimit-reset') ?? NaN);
  const used = Number(headers.get('x-ratelimit-used') ?? NaN);
  if (!Number.isFinite(remaining) || !Number.isFinite(resetSeconds)) return undefined;
  return {
    remaining: Math.max(0, Math.floor(remaining)),
    resetSeconds: Math.max(0, resetSeconds),
    ...(Number.isFinite(used) ? { used: Math.max(0, Math.floor(used)) } : {}),
  };
}

/**
 * `{"json": {"errors": [["CODE", "message", "field"], ...], "ratelimit"?: seconds}}` with a 200: a
 * refusal. RATELIMIT ("you are doing that too much") is a wait, the others are final.
 */
function formErrors(json: unknown): Extract<CallOutcome, { ok: false }> | undefined {
  const body = (json as { json?: { errors?: unknown; ratelimit?: unknown } } | undefined)?.json;
  if (!body || !Array.isArray(body.errors) || body.errors.length === 0) return undefined;
  const errors = body.errors
    .map((e) => (Array.isArray(e) ? e.filter((part) => typeof part === 'string' && part !== '').join(': ') : String(e)))
    .join('; ');
  const codes = body.errors.map((e) => (Array.isArray(e) ? e[0] : undefined));
  if (codes.includes('RATELIMIT')) {
    const seconds =
      typeof body.ratelimit === 'number' && body.ratelimit > 0 ? Math.ceil(body.ratelimit) : DEFAULT_WAIT_SECONDS;
    return { ok: false, status: 429, error: errors, retryAfterSeconds: seconds };
  }
  return { ok: false, status: 200, error: errors };
}

/** Reddit's error bodies: `{message, error}` or `{reason, explanation}` (new modmail). */
function errorText(json: unknown): string | undefined {
  const body = json as { message?: unknown; error?: unknown; reason?: unknown; explanation?: unknown } | undefined;
  const parts = [body?.message ?? body?.reason, body?.explanation].filter(
    (p): p is string => typeof p === 'string' && p !== '',
  );
  return parts.length ? parts.join(': ') : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
