import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

/**
 * One HTTP attempt at a customer's webhook endpoint. Redirects are not followed (a 3xx is a failed
 * attempt): following one would reach a host the address policy never checked. The receiver has
 * `timeoutMs` to answer; its body is not read.
 */
export interface AttemptResult {
  ok: boolean;
  /** The receiver's status code; null when no response came (timeout, refused, DNS). */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookRequest {
  url: string;
  /**
   * The addresses the host resolved to when the address policy checked it. The connection goes to
   * one of these and nowhere else: a second DNS lookup at connect time could answer differently (DNS
   * rebinding) and reach an address the policy refuses. TLS still verifies the certificate against
   * the URL's host name.
   */
  addresses: string[];
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** A `lookup` for node:net that answers with the checked addresses instead of asking DNS again. */
export function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_host, options, callback) => {
    if (entries.length === 0)
      return callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), '', 0);
    // Node asks for every address when it races IPv4 and IPv6 (autoSelectFamily), else for one.
    if (options.all) return callback(null, entries);
    callback(null, entries[0].address, entries[0].family);
  };
}

export async function postWebhook(request: WebhookRequest): Promise<AttemptResult> {
  const started = Date.now();
  const url = new URL(request.url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = send(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
          'user-agent': 'outreach-intelligence-webhooks/1',
          ...request.headers,
        },
        lookup: pinnedLookup(request.addresses),
        signal,
      });
      outgoing.once('response', resolve);
      outgoing.once('error', reject);
      outgoing.end(request.body);
    });
    // Release the connection without buffering whatever the receiver sends back.
    response.destroy();
    const status = response.statusCode ?? 0;
    const ok = status >= 200 && status < 300;
    return { ok, statusCode: status, error: ok ? null : `HTTP ${status}`, durationMs: Date.now() - started };
  } catch (err) {
    const e = err as { name?: string; message?: string; code?: string };
    const error =
      signal.aborted || e.name === 'AbortError'
        ? `timeout after ${request.timeoutMs} ms`
        : (e.code ?? e.message ?? 'request failed');
    return { ok: false, statusCode: null, error, durationMs: Date.now() - started };
  }
}
