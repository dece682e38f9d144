/**
 * Hunter API v2 (https://hunter.io/api-documentation/v2): the key goes in the `api_key` query
 * parameter, every answer is `{data, meta}` or `{errors: [{id, code, details}]}`.
 *   GET /domain-search  (domain, limit)            -> contact discovery
 *   GET /email-finder   (domain, first_name, last_name) -> e-mail lookup
 *   GET /email-verifier (email; 202: still checking, ask again; 222: the SMTP server failed) -> verification
 *   GET /companies/find (domain)                   -> company size (metrics.employees, a range)
 * Statuses: 401 no valid key; 403 the per-second rate limit (wait, then again); 429 the plan's
 * usage limit (no more calls until it resets); 404 nothing known; 451 the person asked to be
 * removed (nothing to deliver); 5xx Hunter's own trouble (once more, then the next provider).
 */
import type { EmailVerification } from '#shared/domain/jobs/verification';
import {
  asRecord,
  callUntilDone,
  getJson,
  providerUrl,
  type CallPolicy,
  type FoundPerson,
  type HttpAnswer,
  type LookupFailure,
  type ProviderDefinition,
  troubleVerdict,
  type Verdict,
} from './port';

/** Hunter's verification statuses in the contract's terms (`result`, deprecated by Hunter, is not read). */
export const HUNTER_VERIFICATION: Readonly<Record<string, EmailVerification>> = {
  valid: { status: 'deliverable', reasons: [] },
  accept_all: { status: 'risky', reasons: ['accept_all'] },
  webmail: { status: 'risky', reasons: ['free_provider'] },
  invalid: { status: 'undeliverable', reasons: ['smtp_rejected'] },
  disposable: { status: 'undeliverable', reasons: ['disposable'] },
  unknown: { status: 'unknown', reasons: [] },
};

/** Hunter publishes no wait for its per-second limit or a pending verification: a second clears both. */
const HUNTER_PAUSE_MS = 1_000;

type Parse<T> = (data: Record<string, unknown>) => T | null;

const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const percent = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.min(100, value)) / 100 : null;

function errorText(answer: HttpAnswer): string {
  if (answer.status === 0) return answer.error ?? 'no answer';
  const first = asRecord((asRecord(answer.body).errors as unknown[] | undefined)?.[0]);
  return `HTTP ${answer.status}${str(first.details) ? ` ${str(first.details)}` : str(first.id) ? ` ${str(first.id)}` : ''}`;
}

/** How one Hunter answer is judged, the same for every route; `parse` reads `data` of a 200. */
function judge<T>(route: string, parse: Parse<T>): (answer: HttpAnswer) => Verdict<T> {
  return (answer) => {
    const failure = (extra: Partial<LookupFailure> = {}): LookupFailure => ({
      ok: false,
      error: `hunter ${route}: ${errorText(answer)}`,
      ...extra,
    });
    const trouble = troubleVerdict<T>(answer, failure({ retryAfterSeconds: answer.retryAfterSeconds }));
    if (trouble) return trouble;
    const { status } = answer;
    if (status === 200) return { done: { ok: true, value: parse(asRecord(asRecord(answer.body).data)) } };
    if (status === 202) {
      const wait = (answer.retryAfterSeconds ?? HUNTER_PAUSE_MS / 1000) * 1000;
      return { again: { waitMs: wait, failure: { ok: false, error: `hunter ${route}: still verifying` } } };
    }
    if (status === 404 || status === 451) return { done: { ok: true, value: null } };
    if (status === 401) return { done: failure({ stop: true }) };
    if (status === 403) {
      const wait = (answer.retryAfterSeconds ?? HUNTER_PAUSE_MS / 1000) * 1000;
      return { again: { waitMs: wait, failure: failure({ retryAfterSeconds: wait / 1000 }) } };
    }
    if (status === 429) return { done: failure({ stop: true, retryAfterSeconds: answer.retryAfterSeconds }) };
    // 400, 422, 222 (the verifier's SMTP failure) and anything else: this lookup failed, the next provider may answer.
    return { done: failure() };
  };
}

const linkedinUrl = (value: unknown): string | null => {
  const text = str(value);
  if (!text) return null;
  return /^https?:\/\//i.test(text) ? text : `https://www.linkedin.com/in/${text.replace(/^\/+/, '')}`;
};

function person(entry: Record<string, unknown>): FoundPerson | null {
  const first = str(entry.first_name);
  const last = str(entry.last_name);
  const full = [first, last].filter(Boolean).join(' ');
  // A generic address (info@, sales@) is not a person.
  if (!full || entry.type === 'generic') return null;
  return {
    full_name: full,
    first_name: first,
    last_name: last,
    title: str(entry.position),
    linkedin_url: linkedinUrl(entry.linkedin),
    email: str(entry.value)?.toLowerCase() ?? null,
    email_confidence: percent(entry.confidence),
  };
}

/** `metrics.employees` is a range ("11-50", "1K-5K", "10K+"): its lower bound, the size the company has at least. */
export function employeesLowerBound(value: unknown): number | null {
  const match = /^\s*(\d{1,7})(k?)/i.exec(typeof value === 'string' ? value : '');
  if (!match) return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
  const n = Number(match[1]) * (match[2] ? 1000 : 1);
  return n > 0 ? n : null;
}

export const hunter: ProviderDefinition = {
  name: 'hunter',
  keyName: 'HUNTER_API_KEY',
  apiBase: { env: 'HUNTER_API_BASE', default: 'https://api.hunter.io/v2' },
  // Hunter allows 10 verifications and 15 searches a second: 10 calls open at once stays under both.
  slots: 10,
  lookups: ['contact_discovery', 'email_lookup', 'email_verify', 'company_size'],
  // Hunter's Starter plan as last read (49 USD a month for 2,000 credits: a search, a found address or a
  // company one credit, a verification half of one). Not checked against the live price page: update with asOf.
  prices: {
    asOf: '2026-11-28',
    usdPerCall: { contact_discovery: 0.0245, email_lookup: 0.0245, email_verify: 0.01225, company_size: 0.0245 },
  },
  create({ key, base, policy }) {
    const get = <T>(route: string, query: Record<string, string>, parse: Parse<T>) =>
      callUntilDone(
        policy,
        () => getJson(providerUrl(base, route, { ...query, api_key: key }), policy.timeoutMs),
        judge(route, parse),
      );
    return {
      contact_discovery: ({ domain, limit }) =>
        get('/domain-search', { domain, limit: String(limit), type: 'personal' }, (data) =>
          (Array.isArray(data.emails) ? data.emails : [])
            .map((e) => person(asRecord(e)))
            .filter((p): p is FoundPerson => p !== null)
            .slice(0, limit),
        ),
      email_lookup: ({ domain, first_name, last_name }) =>
        get('/email-finder', { domain, first_name, last_name }, (data) => {
          const email = str(data.email)?.toLowerCase();
          return email ? { email, confidence: percent(data.score) } : null;
        }),
      email_verify: ({ email }) =>
        get('/email-verifier', { email }, (data) => {
          const status = str(data.status);
          return status && Object.hasOwn(HUNTER_VERIFICATION, status) ? HUNTER_VERIFICATION[status] : null;
        }),
      company_size: ({ domain }) =>
        get('/companies/find', { domain }, (data) => {
          const employees = employeesLowerBound(asRecord(data.metrics).employees);
          return employees === null ? null : { employee_count: employees };
        }),
    };
  },
};

export type { CallPolicy };
