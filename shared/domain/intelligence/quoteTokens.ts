/**
 * Quote tokens: 15 minutes, single use, bound to the user and to the canonical
 * form of exactly what was quoted. Only the token's SHA-256 is stored; the request is kept as a hash.
 */
import { ConflictError, GoneError, UnprocessableError } from '#shared/domain/errors';
import { now } from '#shared/adapters/ports';
import { randomToken, sha256Hex } from '#shared/ids';
import { canonicalJson } from '#shared/json';
import { getQuote, putQuote, quoteRead, type QuoteRecord } from '#shared/store/quotesRepo';
import type { ItemRead } from '#shared/store/batch';

export const QUOTE_TTL_MS = 15 * 60 * 1000;

export { canonicalJson };

export const requestHash = (request: unknown): string => sha256Hex(canonicalJson(request));

export interface IssuedQuote {
  token: string;
  record: QuoteRecord;
}

export async function issueQuote(
  input: Omit<QuoteRecord, 'tokenHash' | 'createdAt' | 'expiresAt' | 'requestHash'> & { request: unknown },
): Promise<IssuedQuote> {
  const at = now();
  const token = `qt_${randomToken(40)}`;
  const { request, ...rest } = input;
  const record: QuoteRecord = {
    ...rest,
    tokenHash: sha256Hex(token),
    requestHash: requestHash(request),
    createdAt: at.toISOString(),
    expiresAt: new Date(at.getTime() + QUOTE_TTL_MS).toISOString(),
  };
  await putQuote(record);
  return { token, record };
}

/**
 * The caller's quote for this token, checked in the contract's order: another user's or an unknown
 * token does not match (422), a used one is 409, an expired one 410, a different request 422.
 */
export async function redeemableQuote(
  userId: string,
  token: string,
  kind: QuoteRecord['kind'],
  request: unknown,
): Promise<QuoteRecord> {
  return redeemableFrom(await getQuote(sha256Hex(token)), userId, kind, request);
}

/** The quote a token names, for a readTogether with the caller's other items (then redeemableFrom). */
export const quoteTokenRead = (token: string): ItemRead<QuoteRecord | undefined> => quoteRead(sha256Hex(token));

/** redeemableQuote's checks, on the quote as quoteTokenRead read it. */
export function redeemableFrom(
  quote: QuoteRecord | undefined,
  userId: string,
  kind: QuoteRecord['kind'],
  request: unknown,
): QuoteRecord {
  if (!quote || quote.userId !== userId)
    throw new UnprocessableError('quote_mismatch', 'This quote token is not one of your quotes.');
  return checkQuote(quote, kind, request);
}

/** What "the same request" means for each kind of quote. */
const MISMATCH_HINT = new Map<QuoteRecord['kind'], string>([
  ['execute', 'send the same package, slots, output fields (or expansion) as the quote.'],
  ['expand', 'send the same package, slots, output fields (or expansion) as the quote.'],
  ['bd_job', 'send the same job body (preset or capabilities, inputs, settings, chat) as the quote.'],
]);

export function checkQuote(quote: QuoteRecord, kind: QuoteRecord['kind'], request: unknown): QuoteRecord {
  if (quote.usedAt)
    throw new ConflictError('quote_token_used', 'This quote token has already been used; request a new quote.');
  if (Date.parse(quote.expiresAt) <= now().getTime())
    throw new GoneError('quote_expired', 'This quote token has expired (quotes live 15 minutes); request a new quote.');
  if (quote.kind !== kind || quote.requestHash !== requestHash(request)) {
    throw new UnprocessableError(
      'quote_mismatch',
      `The request does not match what was quoted: ${MISMATCH_HINT.get(kind)}`,
    );
  }
  return quote;
}

/** After a transaction failed on the token's condition: why (used meanwhile, or expired). */
export async function explainSpentQuote(tokenHash: string): Promise<never> {
  const quote = await getQuote(tokenHash);
  if (quote?.usedAt)
    throw new ConflictError('quote_token_used', 'This quote token has already been used; request a new quote.');
  // Unused and unexpired now, yet refused a moment ago: another request held it then and gave it back since
  // (its job was never queued). Expired it is not, so saying so would send the caller off to quote again.
  if (quote && Date.parse(quote.expiresAt) > now().getTime())
    throw new ConflictError(
      'quote_token_used',
      'This quote token was in use by another request at the same moment; that request did not go through, so the token may be sent again.',
    );
  throw new GoneError('quote_expired', 'This quote token has expired (quotes live 15 minutes); request a new quote.');
}
