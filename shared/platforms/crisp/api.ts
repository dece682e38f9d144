/**
 * The Crisp REST API v1 over fetch, as a plugin: `{base}{route}` with HTTP Basic
 * `identifier:key` (the plugin's production token), `X-Crisp-Tier: plugin` and JSON bodies. Every
 * answer is `{error, reason, data}`; a limit answers 429 or 420 (Enhance Your Calm), with no
 * documented wait, so a missing `Retry-After` means a default pause.
 * https://docs.crisp.chat/guides/rest-api/authentication/ and .../rest-api/rate-limits/
 */
import { now } from '#shared/adapters/ports';
import { platformFetch, platformUrl, type CallOutcome } from '#shared/platforms/result';

export type CrispMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

interface CrispAnswer {
  error?: boolean;
  reason?: string;
  data?: unknown;
}

/** The statuses Crisp limits with: both mean "wait, then try again". */
export const CRISP_RATE_LIMIT_STATUSES: ReadonlySet<number> = new Set([429, 420]);
/** Crisp names no wait; a minute stays clear of its per-route windows without stalling a mute for long. */
export const CRISP_DEFAULT_RETRY_SECONDS = 60;
/** Longer than this a wait is the daily plugin quota; the stall sweep picks the delivery up again anyway. */
const MAX_RETRY_SECONDS = 24 * 60 * 60;

export class CrispApi {
  constructor(
    private readonly identifier: string,
    private readonly key: string,
    private readonly base: string,
  ) {}

  async request(method: CrispMethod, route: string, body?: unknown): Promise<CallOutcome> {
    const headers: Record<string, string> = {
      authorization: `Basic ${Buffer.from(`${this.identifier}:${this.key}`).toString('base64')}`,
      'x-crisp-tier': 'plugin',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await platformFetch(platformUrl(this.base, route), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!(response instanceof Response)) return response;
    let answer: CrispAnswer | undefined;
    try {
      const text = await response.text();
      answer = text ? (JSON.parse(text) as CrispAnswer) : undefined;
    } catch {
      answer = undefined;
    }
    const reason = typeof answer?.reason === 'string' ? answer.reason : undefined;
    if (CRISP_RATE_LIMIT_STATUSES.has(response.status)) {
      return {
        ok: false,
        status: response.status,
        error: `${method} ${route}: ${reason ?? 'rate limited'}`,
        retryAfterSeconds: retryAfter(response.headers.get('retry-after')),
      };
    }
    // A 2xx whose body says error is still a failure (Crisp's envelope is the verdict).
    if (response.ok && answer?.error !== true) return { ok: true, result: answer?.data ?? null };
    return { ok: false, status: response.status, error: `${method} ${route}: ${reason ?? `HTTP ${response.status}`}` };
  }
}

/** `Retry-After` as seconds or an HTTP date; Crisp usually sends neither. */
function retryAfter(header: string | null): number {
  if (header) {
    const seconds = /^\d{1,9}$/.test(header.trim())
      ? Number(header.trim())
      : (Date.parse(header) - now().getTime()) / 1000;
    if (Number.isFinite(seconds) && seconds > 0) return Math.min(MAX_RETRY_SECONDS, Math.ceil(seconds));
  }
  return CRISP_DEFAULT_RETRY_SECONDS;
}
