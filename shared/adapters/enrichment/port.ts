/**
 * The enrichment provider port: one module per outside data provider (./hunter.ts, ./zeroBounce.ts),
 * each offering some of the lookups below over its own HTTP API, registered in ./registry.ts. A
 * lookup answers a value, `null` when the provider found nothing (which the customer is never
 * charged for), or a failure the waterfall (shared/domain/jobs/providers/waterfall.ts) reports in the
 * job's warnings before trying the next provider. Values come back in the contract's vocabulary: a
 * provider's own statuses are mapped in its module, as a table.
 */
import type { ProviderSetting } from '#shared/config/config';
import type { EmailVerification } from '#shared/domain/jobs/verification';

/** Every provider a deployment can list in ENRICHMENT_PROVIDERS; also the `source` a value it found carries. */
export const PROVIDER_NAMES = ['hunter', 'zerobounce'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export interface FoundPerson {
  full_name: string;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  linkedin_url: string | null;
  /** The address the provider listed with the person, if any: delivered only when the job looks e-mails up. */
  email: string | null;
  /** 0..1 */
  email_confidence: number | null;
}

export interface FoundEmail {
  email: string;
  /** 0..1 */
  confidence: number | null;
}

/** What each lookup takes and what it finds. */
export interface Lookups {
  contact_discovery: { input: { domain: string; limit: number }; output: FoundPerson[] };
  email_lookup: { input: { domain: string; first_name: string; last_name: string }; output: FoundEmail };
  email_verify: { input: { email: string }; output: EmailVerification };
  company_size: { input: { domain: string }; output: { employee_count: number } };
}
export type LookupName = keyof Lookups;
export const LOOKUP_NAMES = [
  'company_size',
  'contact_discovery',
  'email_lookup',
  'email_verify',
] as const satisfies readonly LookupName[];

/** A call that did not answer: `retryAfterSeconds` when the provider asked for a pause, `stop` when its key or quota is spent. */
export interface LookupFailure {
  ok: false;
  error: string;
  retryAfterSeconds?: number;
  /** The provider cannot answer anything more for a while (key refused, quota used up): skip it for the rest of the run. */
  stop?: boolean;
}

/** Found (`value`), found nothing (`value: null`), or failed. */
export type LookupOutcome<T> = { ok: true; value: T | null } | LookupFailure;

export type LookupFunctions = {
  [L in LookupName]?: (input: Lookups[L]['input']) => Promise<LookupOutcome<Lookups[L]['output']>>;
};

/** How patiently a provider module calls: waits beyond `maxWaitMs` are not waited for (the next provider is tried). */
export interface CallPolicy {
  timeoutMs: number;
  attempts: number;
  maxWaitMs: number;
  sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_CALL_POLICY: CallPolicy = {
  timeoutMs: 10_000,
  attempts: 3,
  maxWaitMs: 2_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface ProviderDefinition {
  name: ProviderName;
  /** The secret's field (AWS) or environment variable (local) holding the key. */
  keyName: string;
  apiBase: { env: ProviderSetting; default: string };
  /** The lookups it offers (its `create` answers these). */
  lookups: readonly LookupName[];
  /** Calls open to it at once across the whole deployment (its call slots in the table; its rate limits allow them). */
  slots: number;
  /** USD per call by lookup, from the provider's price list of `asOf` (for the bench's margins). */
  prices: { asOf: string; usdPerCall: Partial<Record<LookupName, number>> };
  create(settings: { key: string; base: string; policy: CallPolicy }): LookupFunctions;
}

/** A configured provider: its definition and its lookups, bound to its key. */
export interface EnrichmentProvider {
  name: ProviderName;
  slots: number;
  lookups: LookupFunctions;
}

/** What one HTTP attempt came to: status 0 when no answer came (`error` says why). */
export interface HttpAnswer {
  status: number;
  body?: unknown;
  retryAfterSeconds?: number;
  error?: string;
  timedOut?: boolean;
}

/** One GET, bounded by the policy's timeout; the body parsed as JSON when it is. */
export async function getJson(
  url: string,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json', ...headers },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    return { status: response.status, body, retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')) };
  } catch (err) {
    const name = (err as Error)?.name;
    return {
      status: 0,
      error:
        name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : `network error: ${(err as Error)?.message ?? String(err)}`,
      timedOut: name === 'TimeoutError',
    };
  }
}

/** `Retry-After` in seconds (delta form only; a date form is read as no hint). */
function retryAfterSeconds(header: string | null): number | undefined {
  const value = header?.trim();
  return value && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

/** What a provider module makes of one answer: a final outcome, or "ask again after `waitMs`" (with the failure to report if it cannot). */
export type Verdict<T> = { done: LookupOutcome<T> } | { again: { waitMs: number; failure: LookupFailure } };

/**
 * Calls until a verdict is final: a wait the provider asked for is honoured when it is at most the
 * policy's `maxWaitMs` and attempts remain; otherwise the failure goes back to the waterfall, which
 * moves on to the next provider rather than hold the batch.
 */
export async function callUntilDone<T>(
  policy: CallPolicy,
  attempt: () => Promise<HttpAnswer>,
  judge: (answer: HttpAnswer) => Verdict<T>,
): Promise<LookupOutcome<T>> {
  for (let n = 1; ; n++) {
    const verdict = judge(await attempt());
    if ('done' in verdict) return verdict.done;
    if (n >= policy.attempts || verdict.again.waitMs > policy.maxWaitMs) return verdict.again.failure;
    await policy.sleep(verdict.again.waitMs);
  }
}

/** A JSON object's fields, or none (a provider's body is not trusted to be one). */
export const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** A short pause before asking again when a provider had trouble of its own and named no wait. */
const TROUBLE_PAUSE_MS = 500;

/**
 * What every provider makes of no answer and of its own trouble: a timeout fails at once (waiting
 * longer would hold the batch), a network error or a 5xx is asked again after its `Retry-After` or a
 * short pause. Undefined for any other answer: the provider's module judges it.
 */
export function troubleVerdict<T>(answer: HttpAnswer, failure: LookupFailure): Verdict<T> | undefined {
  if (answer.status === 0)
    return answer.timedOut ? { done: failure } : { again: { waitMs: TROUBLE_PAUSE_MS, failure } };
  if (answer.status >= 500)
    return { again: { waitMs: (answer.retryAfterSeconds ?? TROUBLE_PAUSE_MS / 1000) * 1000, failure } };
  return undefined;
}

/** `{base}{path}?{query}`, however the configured base ends. */
export function providerUrl(base: string, path: string, query: Record<string, string>): string {
  return `${base.replace(/\/$/, '')}${path}?${new URLSearchParams(query).toString()}`;
}
