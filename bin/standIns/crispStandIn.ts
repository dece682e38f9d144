/**
 * A recording stand-in for the Crisp REST API v1 routes a moderation plugin uses
 * (https://docs.crisp.chat/references/rest-api/v1/): delete a message, send a message or a private
 * note, block or unblock a conversation. Every call must carry HTTP Basic `identifier:key` and
 * `X-Crisp-Tier: plugin`; answers are Crisp's `{error, reason, data}`. A limit can be scripted per
 * route: 429 Too Many Requests or 420 Enhance Your Calm, as Crisp answers them, or a 503 (Crisp's own trouble).
 */
import { createHmac } from 'node:crypto';
import { startJsonServer } from './httpStandIn';

export interface CrispCallRecord {
  method: string;
  path: string;
  body: any;
}

interface ScriptedLimit {
  path: RegExp;
  status: 429 | 420 | 503;
  retryAfter?: number;
}

const MESSAGE_TYPES = new Set(['text', 'note', 'file', 'animation', 'audio', 'picker', 'field', 'carousel', 'event']);
const answer = (status: number, reason: string, data: unknown = {}) => ({
  status,
  body: { error: status >= 400, reason, data },
});

export async function startCrispStandIn(identifier: string, key: string) {
  const calls: CrispCallRecord[] = [];
  const limits: ScriptedLimit[] = [];
  /** `website/session` of every conversation currently blocked. */
  const blocked = new Set<string>();
  const deleted: string[] = [];
  let fingerprint = 170_000_000_000_000;
  const expectedAuth = `Basic ${Buffer.from(`${identifier}:${key}`).toString('base64')}`;

  const server = await startJsonServer((req) => {
    if (req.headers.authorization !== expectedAuth || req.headers['x-crisp-tier'] !== 'plugin')
      return answer(401, 'invalid_session');
    calls.push({ method: req.method, path: req.path, body: req.body });
    const limit = limits.findIndex((l) => l.path.test(req.path));
    if (limit >= 0) {
      const [{ status, retryAfter }] = limits.splice(limit, 1);
      return {
        ...answer(status, status === 503 ? 'service_unavailable' : 'rate_limited'),
        ...(retryAfter !== undefined ? { headers: { 'retry-after': String(retryAfter) } } : {}),
      };
    }
    // /website/{w}/conversation/{s}[/message[/{fingerprint}] | /block]
    const parts = req.path.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== 'website' || parts[2] !== 'conversation' || !parts[3]) return answer(404, 'not_found');
    const conversation = `${parts[1]}/${parts[3]}`;
    if (parts[4] === 'block' && parts.length === 5 && req.method === 'PATCH') {
      if (typeof req.body?.blocked !== 'boolean') return answer(400, 'invalid_data');
      if (req.body.blocked) blocked.add(conversation);
      else blocked.delete(conversation);
      return answer(200, 'updated');
    }
    if (parts[4] === 'message' && parts.length === 5 && req.method === 'POST') {
      const b = req.body ?? {};
      if (
        !MESSAGE_TYPES.has(b.type) ||
        (b.from !== 'user' && b.from !== 'operator') ||
        typeof b.origin !== 'string' ||
        typeof b.content !== 'string' ||
        !b.content
      )
        return answer(400, 'invalid_data');
      return answer(202, 'dispatched', { fingerprint: ++fingerprint });
    }
    if (parts[4] === 'message' && parts.length === 6 && req.method === 'DELETE') {
      if (!/^\d+$/.test(parts[5])) return answer(400, 'invalid_data');
      deleted.push(`${conversation}/${parts[5]}`);
      return answer(200, 'deleted');
    }
    return answer(404, 'not_found');
  });

  return {
    apiBase: server.url,
    calls,
    deleted,
    isBlocked: (websiteId: string, sessionId: string) => blocked.has(`${websiteId}/${sessionId}`),
    /** The next call whose path matches answers `status` (with `Retry-After` when given). */
    limitNext: (path: RegExp, status: 429 | 420, retryAfter?: number) => limits.push({ path, status, retryAfter }),
    /** The next call whose path matches answers 503 (Crisp's own trouble, worth another try later). */
    failNext: (path: RegExp) => limits.push({ path, status: 503 }),
    reset: () => {
      calls.length = 0;
      limits.length = 0;
    },
    close: server.close,
  };
}

/** A plugin hook as Crisp sends it: the body and its signature headers. */
export function signCrispHookRequest(secret: string, body: unknown, timestampMs = Date.now()) {
  const timestamp = String(timestampMs);
  const signature = createHmac('sha256', secret)
    .update(`[${timestamp};${JSON.stringify(body)}]`)
    .digest('hex');
  return { body, headers: { 'x-crisp-request-timestamp': timestamp, 'x-crisp-signature': signature } };
}
