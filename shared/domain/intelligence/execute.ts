/**
 * POST /intelligence/execute. The token is read while the ranking runs, and then ONE transaction writes
 * the charge (base + per record returned), the token's use, the identical-query pointer, the
 * intelligence record and the stored result (its data too, when it fits one item): no failure leaves a
 * charge without a result or a result without a charge, and of parallel executes with one token
 * exactly one gets through. The token, the identical-query pointer and the wallet are read together in
 * one request; the transaction's conditions still decide, so a read that went stale only retries.
 */
import { now } from '#shared/adapters/ports';
import { uuidv7 } from '#shared/ids';
import { chargeCredits } from '#shared/domain/credits/credits';
import { InsufficientCreditsError } from '#shared/domain/errors';
import { prepareResultWrites, readResultData } from '#shared/domain/storage/results';
import { consumeQuoteItem, type QuoteRecord } from '#shared/store/quotesRepo';
import {
  getIdenticalQueryResultId,
  identicalQueryRead,
  putIdenticalQueryItem,
  putIntelligenceResultItem,
} from '#shared/store/intelligenceRepo';
import { readTogether } from '#shared/store/batch';
import { walletRead } from '#shared/store/walletRepo';
import { isCancelledTransaction, TransactionConditionError, writeTogether } from '#shared/store/transactions';
import { ENGINES } from './engines';
import type { PreparedRanking, RankedRecord } from './engines/types';
import { PACKAGES, type PackageId } from './packages';
import { executeCredits } from './pricing';
import { explainSpentQuote, quoteTokenRead, redeemableFrom } from '#shared/domain/quotes/quoteTokens';
import { identicalQueryHash } from './quote';
import { executeRequest, projectRecord } from './requests';
import type { StoredIntelData } from './storedResults';

/** A ranking already running, as a prepared one reading nothing (its failure is looked at once the token is good). */
function rankingNow(ranking: Promise<RankedRecord[]>): PreparedRanking<undefined> {
  ranking.catch(() => undefined);
  return { read: { keys: [], decodeAll: () => undefined }, rank: () => ranking };
}

export interface ExecuteInput {
  package_id: PackageId;
  slots?: Record<string, unknown>;
  output_fields?: string[];
  quote_token: string;
}

export interface ExecuteOutcome {
  result_id: string;
  summary: string;
  records_count: number;
  credits_charged: number;
}

export async function executePackage(userId: string, input: ExecuteInput): Promise<ExecuteOutcome> {
  const request = executeRequest(input.package_id, input.slots ?? {}, input.output_fields);
  const queryHash = identicalQueryHash(request);
  const engine = ENGINES[request.packageId];
  // The ranking depends only on the request, so it runs while the token is read: one round trip less.
  // Its outcome is only looked at once the token is good (a bad token answers first, whatever the ranking
  // did); an identical query or a refused token leaves it unused. A ranking that reads items a lookup
  // names (engine.prepare) has them read with the token instead: one request less.
  const ranking = engine.prepare
    ? await engine.prepare(request.slots).catch((err: unknown) => rankingNow(Promise.reject(err)))
    : rankingNow(engine.rank(request.slots));
  const [quoted, previous, wallet, curated] = await readTogether([
    quoteTokenRead(input.quote_token),
    identicalQueryRead(userId, queryHash),
    walletRead(userId),
    ranking.read,
  ] as const);
  const quote = redeemableFrom(quoted, userId, 'execute', request);
  if (previous) return replayIdenticalQuery(userId, quote, previous);

  const pkg = PACKAGES[request.packageId];
  const ranked = await ranking.rank(curated);
  const chosen = ranked.slice(0, Number(request.slots.limit));
  const summary = engine.summary(request.slots, chosen, ranked.length);
  const at = now().toISOString();
  const resultId = uuidv7();
  // Never above the quote: the quote priced `limit` records and at most `limit` are returned.
  const credits = Math.min(executeCredits(pkg, chosen.length), quote.credits);
  const data: StoredIntelData = {
    result_id: resultId,
    package_id: request.packageId,
    summary,
    records_count: chosen.length,
    records: chosen.map((r) => projectRecord(r.id, r.fields, request.outputFields)) as StoredIntelData['records'],
    filled_slots: request.slots,
    output_fields: request.outputFields,
    credits_charged: credits,
    created_at: at,
  };
  const stored = await prepareResultWrites({
    userId,
    resultId,
    toolName: pkg.id,
    chatId: quote.chatId,
    resultData: data,
    metadata: { package_id: pkg.id, records_count: chosen.length, credits_charged: credits },
  });
  const items = {
    token: consumeQuoteItem(quote, at, resultId),
    identicalQuery: putIdenticalQueryItem(userId, queryHash, resultId, at),
    intelligence: putIntelligenceResultItem({
      resultId,
      userId,
      packageId: pkg.id,
      rootResultId: resultId,
      parentResultId: null,
      expansionType: null,
      slots: request.slots,
      outputFields: request.outputFields,
      servedIds: chosen.map((r) => r.id),
      version: 1,
      createdAt: at,
    }),
    ...stored.writes,
  };
  try {
    const outcome = await chargeCredits({
      userId,
      toolName: pkg.id,
      refId: resultId,
      amount: credits,
      chargeId: `quote-${quote.tokenHash}`,
      with: items,
      wallet,
    });
    // The same charge id went through before: a parallel request with this token won.
    if (outcome.alreadyApplied) await explainSpentQuote(quote.tokenHash);
  } catch (err) {
    if (err instanceof TransactionConditionError) {
      if (err.failed.has('token')) await explainSpentQuote(quote.tokenHash);
      if (err.failed.has('identicalQuery')) {
        const winner = await getIdenticalQueryResultId(userId, queryHash);
        if (winner) return replayIdenticalQuery(userId, quote, winner);
      }
    }
    // A parallel execute of this same query may have won and spent the credits this one planned on: the
    // query is then a repeat, free, as it would have been had this one arrived after it.
    if (err instanceof InsufficientCreditsError) {
      const winner = await getIdenticalQueryResultId(userId, queryHash);
      if (winner) return replayIdenticalQuery(userId, quote, winner);
    }
    throw err;
  }
  return { result_id: resultId, summary, records_count: chosen.length, credits_charged: credits };
}

/** The identical-query rule: the earlier result, at zero cost; the token is still used up. */
async function replayIdenticalQuery(userId: string, quote: QuoteRecord, resultId: string): Promise<ExecuteOutcome> {
  try {
    await writeTogether({ token: consumeQuoteItem(quote, now().toISOString(), resultId) });
  } catch (err) {
    if (isCancelledTransaction(err)) await explainSpentQuote(quote.tokenHash);
    throw err;
  }
  const earlier = await readResultData<StoredIntelData>(userId, resultId);
  return {
    result_id: resultId,
    summary: earlier?.data.summary ?? '',
    records_count: earlier?.data.records_count ?? 0,
    credits_charged: 0,
  };
}
