/**
 * The X API v2 over fetch. Calls act as one X account: `Authorization: Bearer {user access token}`
 * (OAuth 2.0 user context), JSON bodies, answers `{data, includes, meta, errors}`. A 200 may carry
 * `errors` beside partial `data`; with no `data` at all it is a failure. Problems (4xx/5xx) are
 * `{title, detail, type, status}` or `{errors: [{message}]}`. Rate limits are per user and endpoint:
 * a 429 carries `x-rate-limit-reset`, the epoch second the window ends. The OAuth 2.0 token endpoint
 * takes HTTP Basic client credentials and a form body and answers `{error, error_description}` when
 * it refuses. https://docs.x.com/x-api/fundamentals/rate-limits, https://docs.x.com/resources/fundamentals/authentication/oauth-2-0/user-access-token
 */
import { now } from '#shared/adapters/ports';
import { networkFailure, platformFetch, type CallOutcome } from '#shared/platforms/result';

export type XMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface XRequest {
  method: XMethod;
  /** Under the API base, e.g. `/2/tweets/123/hidden`. */
  route: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** The parts of X's answers the service reads. */
export interface XAnswer<D = unknown> {
  data?: D;
  includes?: { users?: XUser[] };
  meta?: { newest_id?: string; oldest_id?: string; result_count?: number; next_token?: string };
  errors?: { message?: string; title?: string; detail?: string }[];
}

export interface XUser {
  id: string;
  username: string;
  name?: string;
}

export interface XPost {
  id: string;
  text: string;
  author_id?: string;
  created_at?: string;
  conversation_id?: string;
}

/** What the token endpoint answers (refresh_token only with the offline.access scope). */
export interface XTokenAnswer {
  token_type: string;
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  scope?: string;
}

/** When X names no reset (it always should), a window of its own length is the safe guess. */
const DEFAULT_RETRY_SECONDS = 60;

export class XApi {
  constructor(
    private readonly base: string,
    private readonly nowMs: () => number = () => now().getTime(),
  ) {}

  /** One call as the account whose access token is given. */
  async request(accessToken: string, req: XRequest): Promise<CallOutcome> {
    const query = req.query && Object.keys(req.query).length > 0 ? `?${new URLSearchParams(req.query)}` : '';
    const headers: Record<string, string> = { authorization: `Bearer ${accessToken}` };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    return this.send(`${req.method} ${req.route}`, `${this.url(req.route)}${query}`, {
      method: req.method,
      headers,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
    });
  }

  /** `POST /2/oauth2/token` as the confidential client: an authorization_code or refresh_token grant. */
  token(clientId: string, clientSecret: string, form: Record<string, string>): Promise<CallOutcome> {
    return this.asClient('/2/oauth2/token', clientId, clientSecret, form);
  }

  /** `POST /2/oauth2/revoke`: the grant ends at X (a deleted community's account). */
  revoke(
    clientId: string,
    clientSecret: string,
    token: string,
    hint: 'refresh_token' | 'access_token',
  ): Promise<CallOutcome> {
    return this.asClient('/2/oauth2/revoke', clientId, clientSecret, { token, token_type_hint: hint });
  }

  private asClient(
    route: string,
    clientId: string,
    clientSecret: string,
    form: Record<string, string>,
  ): Promise<CallOutcome> {
    return this.send(`POST ${route}`, this.url(route), {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form).toString(),
    });
  }

  private url(route: string): string {
    return `${this.base.replace(/\/+$/, '')}${route}`;
  }

  private async send(label: string, url: string, init: RequestInit): Promise<CallOutcome> {
    const response = await platformFetch(url, init);
    if (!(response instanceof Response)) return response;
    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      return networkFailure(err);
    }
    const json = text ? safeJson(text) : undefined;
    if (response.status === 429) {
      return {
        ok: false,
        status: 429,
        error: `${label}: ${problemText(json) ?? 'rate limited'}`,
        retryAfterSeconds: this.retryAfter(response.headers),
      };
    }
    if (response.ok) {
      const answer = json as XAnswer | undefined;
      // A 200 that carries only errors did nothing (a post that is gone, a user that is not found).
      if (
        answer &&
        typeof answer === 'object' &&
        answer.data === undefined &&
        Array.isArray(answer.errors) &&
        answer.errors.length > 0
      ) {
        return { ok: false, status: response.status, error: `${label}: ${problemText(answer)}` };
      }
      return { ok: true, result: json ?? null };
    }
    return { ok: false, status: response.status, error: `${label}: ${problemText(json) ?? `HTTP ${response.status}`}` };
  }

  /** Seconds until the window named by `x-rate-limit-reset` ends (at least one). */
  private retryAfter(headers: Headers): number {
    const reset = Number(headers.get('x-rate-limit-reset'));
    if (headers.get('x-rate-limit-reset') && Number.isFinite(reset))
      return Math.max(1, Math.ceil(reset - this.nowMs() / 1000));
    const retryAfter = Number(headers.get('retry-after'));
    return headers.get('retry-after') && Number.isFinite(retryAfter) ? Math.max(1, retryAfter) : DEFAULT_RETRY_SECONDS;
  }
}

/** X's own words for a failure, whichever of its shapes it used. */
function problemText(json: unknown): string | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const j = json as {
    error?: unknown;
    error_description?: unknown;
    detail?: unknown;
    title?: unknown;
    errors?: { message?: string; detail?: string; title?: string }[];
  };
  // The OAuth endpoint: {error, error_description}; the code is what callers branch on.
  if (typeof j.error === 'string')
    return typeof j.error_description === 'string' ? `${j.error} (${j.error_description})` : j.error;
  const first = Array.isArray(j.errors) ? j.errors[0] : undefined;
  const text =
    (typeof j.detail === 'string' && j.detail) ||
    first?.detail ||
    first?.message ||
    (typeof j.title === 'string' && j.title) ||
    first?.title;
  return text ? String(text).slice(0, 300) : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
