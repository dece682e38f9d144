/**
 * Quote tokens, for every priced request (intelligence, jobs, growth): 15 minutes, single use, bound to the
 * user and to the canonical form of exactly what was quoted. Only the token's SHA-256 is stored; the request
 * is kept as a hash.
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

type QuoteKind = QuoteRecord['kind'];

/** Each kind's wording: the endpoint that issued the token, and what "the same request" means for it. */
interface KindWording {
  prefix: string;
  notYours: string;
  used: string;
  expired: (quote: QuoteRecord) => string;
  mismatch: string;
}

const SPEND_WORDING = {
  prefix: 'qt_',
  notYours: 'This quote token is not one of your quotes.',
  used: 'This quote token has already been used; request a new quote.',
  expired: () => 'This quote token has expired (quotes live 15 minutes); request a new quote.',
};

const WORDING: Record<QuoteKind, KindWording> = {
  execute: {
    ...SPEND_WORDING,
    mismatch:
      'The request does not match what was quoted: send the same package, slots, output fields (or expansion) as the quote.',
  },
  expand: {
    ...SPEND_WORDING,
    mismatch:
      'The request does not match what was quoted: send the same package, slots, output fields (or expansion) as the quote.',
  },
  bd_job: {
    ...SPEND_WORDING,
    mismatch:
      'The request does not match what was quoted: send the same job body (preset or capabilities, inputs, settings, chat) as the quote.',
  },
  growth: {
    prefix: 'gq_',
    notYours: 'This quote_token was not issued to you by POST /growth/quote.',
    used: 'This quote token has already been used; quote the plan again.',
    expired: (quote) => `This quote expired at ${quote.expiresAt}; quote the plan again.`,
    mismatch:
      'goal_plan is not the normalised plan this token was quoted for; send the goal_plan returned by POST /growth/quote.',
  },
};

export interface IssuedQuote {
  token: string;
  record: QuoteRecord;
}

export async function issueQuote(
  input: Omit<QuoteRecord, 'tokenHash' | 'createdAt' | 'expiresAt' | 'requestHash'> & { request: unknown },
): Promise<IssuedQuote> {
  const at = now();
  const token = `${WORDING[input.kind].prefix}${randomToken(40)}`;
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
  kind: QuoteKind,
  request: unknown,
): Promise<QuoteRecord> {
  return redeemableFrom(await getQuote(sha256Hex(token)), userId, kind, request);
}

/** The quote a token names, for a readTogether with the caller's other items (then redeemableFrom). */
export const quoteTokenRead = (token: string): ItemRead<QuoteRecord | undefined> => quoteRead(sha256Hex(token));

/** The quote stored for a token, or undefined (the token is unknown, or was stored before tokens were hashed). */
export const quoteOfToken = (token: string): Promise<QuoteRecord | undefined> => getQuote(sha256Hex(token));

/**
 * Why a token cannot be used now, whatever it was quoted for, in the order a caller must hear it: whose it
 * is (an unknown token is nobody's), then whether it was used, then whether it expired. Undefined when usable.
 */
export function quoteRefusal(quote: QuoteRecord | undefined, userId: string, kind: QuoteKind): Error | undefined {
  const wording = WORDING[kind];
  if (!quote || quote.userId !== userId) return new UnprocessableError('quote_mismatch', wording.notYours);
  if (quote.usedAt) return new ConflictError('quote_token_used', wording.used);
  if (Date.parse(quote.expiresAt) <= now().getTime()) return new GoneError('quote_expired', wording.expired(quote));
  return undefined;
}

/** redeemableQuote's checks, on the quote as quoteTokenRead read it. */
export function redeemableFrom(
  quote: QuoteRecord | undefined,
  userId: string,
  kind: QuoteKind,
  request: unknown,
): QuoteRecord {
  const refusal = quoteRefusal(quote, userId, kind);
  if (refusal || !quote) throw refusal;
  if (quote.kind !== kind || quote.requestHash !== requestHash(request))
    throw new UnprocessableError('quote_mismatch', WORDING[kind].mismatch);
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
