/**
 * One HTTP attempt at a customer's webhook endpoint. Redirects are not followed (a 3xx is a failed
 * attempt): following one would reach a host the address policy never checked. The receiver has
 * `timeoutMs` to answer; its body is read only up to a small cap and otherwise ignored.
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
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export async function postWebhook(request: WebhookRequest): Promise<AttemptResult> {
  const started = Date.now();
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'outreach-intelligence-webhooks/1', ...request.headers },
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    // Release the connection without buffering whatever the receiver sends back.
    await response.body?.cancel().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return { ok, statusCode: response.status, error: ok ? null : `HTTP ${response.status}`, durationMs: Date.now() - started };
  } catch (err) {
    const e = err as { name?: string; message?: string; cause?: { code?: string } };
    const error = e.name === 'TimeoutError' || e.name === 'AbortError' ? `timeout after ${request.timeoutMs} ms` : (e.cause?.code ?? e.message ?? 'request failed');
    return { ok: false, statusCode: null, error, durationMs: Date.now() - started };
  }
}
