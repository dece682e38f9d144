import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './client';
import { quoteKey } from './keys';
import type { ItemRead } from './batch';
import type { TransactItem } from './transactions';
import { defineEntity } from './entity';

/** A quote, stored under the SHA-256 of its token (the token itself is never stored). */
export interface QuoteRecord {
  tokenHash: string;
  userId: string;
  /** `bd_job`: an enrichment job's quote (POST /bd/jobs/quote); `growth`: a goal plan's (POST /growth/quote). */
  kind: 'execute' | 'expand' | 'bd_job' | 'growth';
  packageId: string;
  /** SHA-256 of the canonical request the quote was issued for. */
  requestHash: string;
  credits: number;
  chatId: string | null;
  createdAt: string;
  expiresAt: string;
  usedAt?: string;
  /** What the use made: the result, the job or the growth run. */
  resultId?: string;
}

/** Kept a week past expiry so a late execute still answers 410 quote_expired, then removed by TTL. */
const RETAIN_SECONDS = 7 * 24 * 3600;

const quotes = defineEntity<QuoteRecord>()({
  name: 'quote',
  key: (q: Pick<QuoteRecord, 'tokenHash'>) => quoteKey(q.tokenHash),
});

export async function putQuote(quote: QuoteRecord): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: quotes.item(quote, { ttl: Math.floor(Date.parse(quote.expiresAt) / 1000) + RETAIN_SECONDS }),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** The quote, for a readTogether with the caller's other items (read consistently, as getQuote). */
export const quoteRead = (tokenHash: string): ItemRead<QuoteRecord | undefined> => ({
  key: quoteKey(tokenHash),
  decode: quotes.maybe,
});

export async function getQuote(tokenHash: string): Promise<QuoteRecord | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: quoteKey(tokenHash), ConsistentRead: true }),
  );
  return quotes.maybe(Item);
}

/**
 * Marks the quote used, for the transaction that writes what it paid for. The condition makes the
 * token single use even under parallel requests: only one transaction can pass it.
 */
export function consumeQuoteItem(quote: QuoteRecord, at: string, resultId: string): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: quoteKey(quote.tokenHash),
      ...quotes.update({
        set: { usedAt: at, resultId },
        condition: {
          expression: 'attribute_exists(pk) AND userId = :user AND attribute_not_exists(usedAt) AND expiresAt > :at',
          values: { ':at': at, ':user': quote.userId },
        },
      }),
    },
  };
}

/**
 * Gives back a quote whose use bought nothing (the job it paid for was never queued, and failed with
 * its credits released): usable again until its own expiry. Only the use that made `resultId` is undone.
 */
export async function restoreQuote(tokenHash: string, resultId: string): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: quoteKey(tokenHash),
      ...quotes.update({
        remove: ['usedAt', 'resultId'],
        condition: { expression: 'resultId = :made', values: { ':made': resultId } },
      }),
    }),
  );
}
