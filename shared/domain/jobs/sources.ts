/**
 * Where a delivered value came from (its `source`): the customer's input, the curated dataset, a
 * local rule (an address pattern, the verification rules) or an outside provider by name.
 */
import { PROVIDER_NAMES } from '#shared/adapters/enrichment/port';
import type { EmailVerification } from './verification';

export const VALUE_SOURCES = ['input', 'curated', 'pattern', 'rules', ...PROVIDER_NAMES] as const;
export type ValueSource = (typeof VALUE_SOURCES)[number];

/** A verification with who concluded it: `rules` (syntax, lists and DNS here) or the provider that checked the mailbox. */
export type SourcedVerification = EmailVerification & { source?: ValueSource };
