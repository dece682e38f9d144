/**
 * POST /intelligence/expand. Re-plans the quoted expansion against current state (so a contact
 * unlocked meanwhile is not charged twice), then writes the charge, the token's use, the expansion's
 * stored result and the state it changes (unlock memory, or the served ranking) in one transaction.
 * The parent result, the token and the wallet are read in one request, and an unlock reads its memory
 * with the records' profiles; the transaction's conditions still decide, so stale reads only retry.
 */
import { now } from '#shared/adapters/ports';
import { ConflictError, InsufficientCreditsError } from '#shared/domain/errors';
import { uuidv7 } from '#shared/ids';
import { chargeCredits } from '#shared/domain/credits/credits';
import { prepareResultWrites } from '#shared/domain/storage/results';
import { getCuratedEntities } from '#shared/store/curatedReads';
import { consumeQuoteItem } from '#shared/store/quotesRepo';
import { extendServedIdsItem, putIntelligenceResultItem } from '#shared/store/intelligenceRepo';
import { readTogether } from '#shared/store/batch';
import { walletRead } from '#shared/store/walletRepo';
import { TransactionConditionError, type TransactItem } from '#shared/store/transactions';
import type { CuratedFund } from '#shared/domain/curated/model';
import type { ExpansionParams } from './expansionParams';
import { PACKAGES, type ExpansionType, type PackageDef } from './packages';
import { increaseLimitCredits, increaseLimitRecords, networkDepthCredits } from './pricing';
import { explainSpentQuote, quoteTokenRead, redeemableFrom } from '#shared/domain/quotes/quoteTokens';
import { expansionRequest, remainingRanking } from './quote';
import { projectRecord } from './requests';
import {
  networkOf,
  parseExpansionParams,
  planUnlock,
  selectRecords,
  unlockTally,
  type IntelRecord,
} from './expansions';
import {
  EXPANSION_TOOL_NAME,
  intelResultFrom,
  intelResultReads,
  type LoadedResult,
  type StoredIntelData,
} from './storedResults';
import { plural } from './engines/format';
import { assertExpansionOffered } from './results';

export interface ExpandInput {
  parent_result_id: string;
  expansion_type: ExpansionType;
  expansion_params: Record<string, unknown>;
  quote_token: string;
}

/** What an expansion produced, and the extra state it must write with its charge. */
interface Produced {
  records: IntelRecord[];
  credits: number;
  summary: string;
  state?: TransactItem | TransactItem[];
}

async function produce(
  userId: string,
  pkg: PackageDef,
  parent: LoadedResult,
  type: ExpansionType,
  params: ExpansionParams[ExpansionType],
): Promise<Produced> {
  if (type === 'contact_unlock') {
    const p = params as ExpansionParams['contact_unlock'];
    const selected = selectRecords(parent.data.records, p.selection, 'expansion_params');
    const plan = await planUnlock(userId, pkg, selected, p.contact_tier);
    return {
      records: plan.records,
      credits: plan.credits,
      summary: `${plural(plan.records.length, 'contact')} unlocked at the ${p.contact_tier} tier or above; ${unlockTally(plan.lines)}.`,
      state: plan.writes,
    };
  }
  if (type === 'network_depth') {
    const p = params as ExpansionParams['network_depth'];
    const selected = selectRecords(parent.data.records, p.selection, 'expansion_params');
    const funds = await getCuratedEntities<CuratedFund>(
      'fund',
      selected.map((r) => r.record_id),
    );
    const records = selected.map((r) => {
      const fund = funds.get(r.record_id);
      return {
        record_id: r.record_id,
        name: r.name ?? fund?.name ?? null,
        ...(fund
          ? networkOf(fund)
          : {
              co_investors: [],
              shared_portfolio_companies: [],
              relationship_strength: 'none',
              network_summary: 'No longer in the curated data.',
            }),
      } as IntelRecord;
    });
    return {
      records,
      credits: networkDepthCredits(records.length),
      summary: `Co-investor networks for ${plural(records.length, 'fund')}.`,
    };
  }
  const p = params as ExpansionParams['increase_limit'];
  const remaining = await remainingRanking(userId, parent);
  const next = remaining.slice(0, increaseLimitRecords(p.blocks));
  const root = remaining.root;
  return {
    records: next.map((r) => projectRecord(r.id, r.fields, root.outputFields) as IntelRecord),
    credits: increaseLimitCredits(pkg, next.length),
    summary: next.length
      ? `${plural(next.length, 'more record')} continuing the ranking (positions ${root.servedIds.length + 1} to ${root.servedIds.length + next.length}).`
      : 'The ranking has no further records.',
    state: extendServedIdsItem(userId, root.resultId, [...root.servedIds, ...next.map((r) => r.id)], root.version),
  };
}

// Each retry re-plans against the state that won, so it converges; the jittered pause spreads the
// contenders of a burst (many expansions of one result at once) so each round lets one through.
const MAX_ATTEMPTS = 12;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(400, 25 * 2 ** attempt)));

export async function expandResult(userId: string, input: ExpandInput) {
  const [intel, record, firstChunk, quoted, wallet] = await readTogether([
    ...intelResultReads(userId, input.parent_result_id),
    quoteTokenRead(input.quote_token),
    walletRead(userId),
  ] as const);
  const parent = await intelResultFrom(userId, input.parent_result_id, [intel, record, firstChunk]);
  const pkg = PACKAGES[parent.intel.packageId as keyof typeof PACKAGES];
  const params = parseExpansionParams(pkg, input.expansion_type, input.expansion_params, 'expansion_params');
  assertExpansionOffered(pkg, parent.intel.expansionType, input.expansion_type);
  const quote = redeemableFrom(
    quoted,
    userId,
    'expand',
    expansionRequest(input.parent_result_id, input.expansion_type, params),
  );

  // A concurrent unlock or increase_limit by the same user moves the state we priced on: plan again.
  for (let attempt = 1; ; attempt++) {
    const produced = await produce(userId, pkg, parent, input.expansion_type, params);
    const credits = Math.min(produced.credits, quote.credits);
    const at = now().toISOString();
    const resultId = uuidv7();
    const data: StoredIntelData = {
      result_id: resultId,
      package_id: pkg.id,
      parent_result_id: input.parent_result_id,
      expansion_type: input.expansion_type,
      summary: produced.summary,
      records_count: produced.records.length,
      records: produced.records,
      credits_charged: credits,
      created_at: at,
    };
    const stored = await prepareResultWrites({
      userId,
      resultId,
      toolName: EXPANSION_TOOL_NAME,
      chatId: quote.chatId,
      resultData: data,
      metadata: { expansion_type: input.expansion_type, parent_result_id: input.parent_result_id, package_id: pkg.id },
    });
    const items = {
      token: consumeQuoteItem(quote, at, resultId),
      intelligence: putIntelligenceResultItem({
        resultId,
        userId,
        packageId: pkg.id,
        rootResultId: parent.intel.rootResultId,
        parentResultId: input.parent_result_id,
        expansionType: input.expansion_type,
        slots: parent.intel.slots,
        outputFields: parent.intel.outputFields,
        servedIds: [],
        version: 1,
        createdAt: at,
      }),
      // The unlock memory or the root's served ids, as priced: another expansion may move it first.
      state: produced.state,
      ...stored.writes,
    };
    try {
      // The wallet read with the parent serves the first attempt only: a retry reads it afresh.
      const outcome = await chargeCredits({
        userId,
        toolName: input.expansion_type,
        refId: resultId,
        amount: credits,
        chargeId: `quote-${quote.tokenHash}`,
        with: items,
        ...(attempt === 1 ? { wallet } : {}),
      });
      if (outcome.alreadyApplied) await explainSpentQuote(quote.tokenHash);
      return {
        result_id: resultId,
        parent_result_id: input.parent_result_id,
        expansion_type: input.expansion_type,
        records: produced.records,
        records_count: produced.records.length,
        credits_charged: credits,
      };
    } catch (err) {
      // Too little for the price planned, but a parallel expansion may have moved the state that price came
      // from (unlocked some of these contacts) and spent the credits: planned again, it may cost less or nothing.
      if (err instanceof InsufficientCreditsError && attempt < MAX_ATTEMPTS) {
        const again = await produce(userId, pkg, parent, input.expansion_type, params);
        if (Math.min(again.credits, quote.credits) < credits) continue;
      }
      if (!(err instanceof TransactionConditionError)) throw err;
      if (err.failed.has('token')) await explainSpentQuote(quote.tokenHash);
      if (!err.failed.has('state')) throw err;
      // Nothing was charged: the transaction that would have charged was cancelled as a whole.
      if (attempt >= MAX_ATTEMPTS)
        throw new ConflictError(
          'concurrent_update',
          'Other expansions of this result kept changing it; nothing was charged, please retry.',
        );
      await pause(attempt);
    }
  }
}
