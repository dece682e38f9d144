/** What e-mail verification concludes about an address: shared by the provider interface and the deliverable rows. */
export const VERIFY_REASONS = [
  'syntax',
  'no_mx',
  'disposable',
  'role_account',
  'free_provider',
  'dns_timeout',
] as const;
export type VerifyReason = (typeof VERIFY_REASONS)[number];

export interface EmailVerification {
  status: 'deliverable' | 'risky' | 'undeliverable' | 'unknown';
  reasons: VerifyReason[];
}
