/**
 * E-mail verification rules as data: each check that flags an address adds its reason;
 * the status is the most severe reason's. The disposable list is the maintained
 * `disposable-email-domains` package, loaded on first use (./disposableDomains.ts); free providers are a table in ../freeEmailProviders.ts (the `free-email-domains`
 * package downloads its list at install time, which a sealed build cannot do).
 */
import type { EmailVerification, VerifyReason } from './providers/types';
import { isFreeProvider } from '#shared/domain/freeEmailProviders';

export const REASON_STATUS: Record<VerifyReason, EmailVerification['status']> = {
  syntax: 'undeliverable',
  no_mx: 'undeliverable',
  disposable: 'undeliverable',
  dns_timeout: 'unknown',
  role_account: 'risky',
  free_provider: 'risky',
  accept_all: 'risky',
  smtp_rejected: 'undeliverable',
};

const STATUS_RANK: Record<EmailVerification['status'], number> = {
  deliverable: 0,
  risky: 1,
  unknown: 2,
  undeliverable: 3,
};

/** The more severe of two statuses. */
export const worseStatus = (
  a: EmailVerification['status'],
  b: EmailVerification['status'],
): EmailVerification['status'] => (STATUS_RANK[b] > STATUS_RANK[a] ? b : a);

export function verificationStatus(reasons: VerifyReason[]): EmailVerification['status'] {
  return reasons.reduce<EmailVerification['status']>(
    (worst, r) => (STATUS_RANK[REASON_STATUS[r]] > STATUS_RANK[worst] ? REASON_STATUS[r] : worst),
    'deliverable',
  );
}

/**
 * Practical address syntax: a dot-atom local part (no leading, trailing or double dots, at most 64
 * characters) and a host name with a TLD. Quoted local parts and IP literals are not accepted.
 */
export function hasValidSyntax(email: string): boolean {
  if (email.length > 254) return false;
  const match =
    /^([A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*)@((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63})$/.exec(
      email,
    );
  return match !== null && match[1].length <= 64;
}

/** Local parts that reach a team or a system rather than a person. */
export const ROLE_ACCOUNTS = new Set([
  'admin',
  'administrator',
  'billing',
  'careers',
  'contact',
  'enquiries',
  'feedback',
  'finance',
  'hello',
  'help',
  'hi',
  'hr',
  'info',
  'inquiries',
  'investors',
  'jobs',
  'legal',
  'mail',
  'marketing',
  'media',
  'no-reply',
  'noreply',
  'office',
  'partners',
  'postmaster',
  'press',
  'privacy',
  'recruiting',
  'sales',
  'security',
  'support',
  'team',
  'webmaster',
]);

export const isRoleAccount = (localPart: string): boolean =>
  ROLE_ACCOUNTS.has(localPart.toLowerCase().replace(/\+.*$/, ''));
export { isFreeProvider };
