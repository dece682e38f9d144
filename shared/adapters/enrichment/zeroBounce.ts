/**
 * ZeroBounce API v2 (https://www.zerobounce.net/docs/email-validation-api-quickstart/), verification
 * only: GET /validate with `api_key`, `email` and `ip_address` (blank: none known) answers
 * `{address, status, sub_status, free_email, mx_found, ...}`. A refused key or spent credits is a 200
 * whose body is `{error: "..."}`; a limit is 429.
 */
import type { EmailVerification, VerifyReason } from '#shared/domain/jobs/verification';
import {
  asRecord,
  callUntilDone,
  getJson,
  providerUrl,
  type HttpAnswer,
  type LookupFailure,
  type ProviderDefinition,
  troubleVerdict,
  type Verdict,
} from './port';

/** ZeroBounce's statuses in the contract's terms; `sub_status` may add the reason (below). */
export const ZEROBOUNCE_STATUS: Readonly<Record<string, EmailVerification['status']>> = {
  valid: 'deliverable',
  'catch-all': 'risky',
  invalid: 'undeliverable',
  spamtrap: 'undeliverable',
  abuse: 'undeliverable',
  do_not_mail: 'undeliverable',
  unknown: 'unknown',
};

const STATUS_REASON: Readonly<Record<string, VerifyReason>> = {
  'catch-all': 'accept_all',
  invalid: 'smtp_rejected',
};

const SUB_STATUS_REASON: Readonly<Record<string, VerifyReason>> = {
  failed_syntax_check: 'syntax',
  no_dns_entries: 'no_mx',
  disposable: 'disposable',
  role_based: 'role_account',
  role_based_catch_all: 'role_account',
  mailbox_not_found: 'smtp_rejected',
  does_not_accept_mail: 'smtp_rejected',
};

export function zeroBounceVerification(body: Record<string, unknown>): EmailVerification | null {
  const status = typeof body.status === 'string' ? body.status.toLowerCase() : '';
  if (!Object.hasOwn(ZEROBOUNCE_STATUS, status)) return null;
  const sub = typeof body.sub_status === 'string' ? body.sub_status.toLowerCase() : '';
  const reasons = new Set<VerifyReason>();
  if (Object.hasOwn(STATUS_REASON, status)) reasons.add(STATUS_REASON[status]);
  if (Object.hasOwn(SUB_STATUS_REASON, sub)) reasons.add(SUB_STATUS_REASON[sub]);
  if (body.free_email === true || body.free_email === 'true') reasons.add('free_provider');
  // A free-mail address that accepts mail is risky, as Hunter's `webmail` is.
  const verdict = ZEROBOUNCE_STATUS[status];
  return {
    status: verdict === 'deliverable' && reasons.has('free_provider') ? 'risky' : verdict,
    reasons: [...reasons],
  };
}

function judge(answer: HttpAnswer): Verdict<EmailVerification> {
  const failure = (error: string, extra: Partial<LookupFailure> = {}): LookupFailure => ({
    ok: false,
    error: `zerobounce /validate: ${error}`,
    ...extra,
  });
  const trouble = troubleVerdict<EmailVerification>(
    answer,
    failure(answer.status === 0 ? (answer.error ?? 'no answer') : `HTTP ${answer.status}`),
  );
  if (trouble) return trouble;
  const body = asRecord(answer.body);
  if (answer.status === 200 && typeof body.error === 'string') return { done: failure(body.error, { stop: true }) };
  if (answer.status === 200) return { done: { ok: true, value: zeroBounceVerification(body) } };
  if (answer.status === 401 || answer.status === 403) return { done: failure(`HTTP ${answer.status}`, { stop: true }) };
  if (answer.status === 429)
    return { done: failure('HTTP 429', { stop: true, retryAfterSeconds: answer.retryAfterSeconds }) };
  return { done: failure(`HTTP ${answer.status}`) };
}

export const zeroBounce: ProviderDefinition = {
  name: 'zerobounce',
  keyName: 'ZEROBOUNCE_API_KEY',
  apiBase: { env: 'ZEROBOUNCE_API_BASE', default: 'https://api.zerobounce.net/v2' },
  slots: 5,
  lookups: ['email_verify'],
  // Pay-as-you-go as last read (about 0.008 USD a validation at 2,000); not checked against the live page: update with asOf.
  prices: { asOf: '2026-11-28', usdPerCall: { email_verify: 0.008 } },
  create({ key, base, policy }) {
    return {
      email_verify: ({ email }) =>
        callUntilDone(
          policy,
          () => getJson(providerUrl(base, '/validate', { api_key: key, email, ip_address: '' }), policy.timeoutMs),
          judge,
        ),
    };
  },
};
