/**
 * The Discord REST API over fetch: `{base}{route}` with `Authorization: Bot {token}` and JSON bodies.
 * A 429 carries `Retry-After` (seconds) and a body `{message, retry_after, global}`; errors carry
 * `{code, message}`. https://discord.com/developers/docs/topics/rate-limits
 */
import type { RESTError, RESTRateLimit } from 'discord-api-types/v10';
import { platformFetch, platformUrl, type CallOutcome } from '#shared/platforms/result';

export class DiscordRest {
  constructor(
    private readonly token: string,
    private readonly base: string,
  ) {}

  async request(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    route: string,
    body?: unknown,
    auditReason?: string,
  ): Promise<CallOutcome> {
    const headers: Record<string, string> = { authorization: `Bot ${this.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    // Shown in the guild's audit log next to the action, so moderators see who did it and why.
    if (auditReason) headers['x-audit-log-reason'] = encodeURIComponent(auditReason.slice(0, 512));
    const response = await platformFetch(platformUrl(this.base, route), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!(response instanceof Response)) return response;
    const text = await response.text();
    const json = text ? safeJson(text) : undefined;
    if (response.ok) return { ok: true, result: json ?? null };
    if (response.status === 429) {
      const limit = json as Partial<RESTRateLimit> | undefined;
      const header = Number(response.headers.get('retry-after'));
      const seconds = limit?.retry_after ?? (Number.isFinite(header) ? header : 1);
      return {
        ok: false,
        status: 429,
        error: `${method} ${route}: ${limit?.message ?? 'rate limited'}`,
        retryAfterSeconds: seconds,
      };
    }
    const error = json as Partial<RESTError> | undefined;
    return {
      ok: false,
      status: response.status,
      error: `${method} ${route}: ${error?.message ?? `HTTP ${response.status}`}${error?.code !== undefined ? ` (code ${error.code})` : ''}`,
    };
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
