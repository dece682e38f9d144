/**
 * What e-mail verification concludes about an address: shared by the provider interface and the deliverable rows.
 * Imports nothing: the enrichment port names these shapes, and the sources it would name import the port.
 */
export const VERIFY_REASONS = [
  'syntax',
  'no_mx',
  'disposable',
  'role_account',
  'free_provider',
  'dns_timeout',
  /** The domain accepts every address (catch-all), so this one cannot be confirmed. */
  'accept_all',
  /** The mail server refused the address when asked. */
  'smtp_rejected',
] as const;
export type VerifyReason = (typeof VERIFY_REASONS)[number];

export interface EmailVerification {
  status: 'deliverable' | 'risky' | 'undeliverable' | 'unknown';
  reasons: VerifyReason[];
}
