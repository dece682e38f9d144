/**
 * Why a well-formed quote request cannot be priced. These are answers, not failures:
 * the quote endpoint returns them with HTTP 200, ok false and the code.
 */
export const QUOTE_ERROR_CODES = [
  'invalid_goal_plan',
  'missing_input_assets',
  'max_external_spend_too_low',
  'quote_validation_failed',
] as const;
export type QuoteErrorCode = (typeof QUOTE_ERROR_CODES)[number];

export class QuoteRefusal extends Error {
  constructor(
    readonly code: QuoteErrorCode,
    readonly detail: string,
    readonly nextStep: string,
    readonly missingInputs: string[] = [],
  ) {
    super(detail);
  }
}
