/** POST /intelligence/quote: prices a package run or an expansion and issues its token. */
import { UnprocessableError, ValidationError } from '#shared/domain/errors';
import { requireChat } from '#shared/domain/storage/chats';
import { getIdenticalQueryResultId, getIntelligenceResult } from '#shared/store/intelligenceRepo';
import { ENGINES } from './engines';
import { issueQuote, requestHash } from '#shared/domain/quotes/quoteTokens';
import { executeRequest, repeatedRequest, type ExecuteRequest } from './requests';
import { parentMismatches } from './parentMatch';
import { INCREASE_LIMIT_BLOCK, PACKAGES, type ExpansionType, type PackageDef, type PackageId } from './packages';
import { executeCredits, increaseLimitRecords } from './pricing';
import {
  increaseLimitQuote,
  networkDepthQuote,
  parseExpansionParams,
  planUnlock,
  selectRecords,
  unlockTally,
} from './expansions';
import { loadIntelResult, type LoadedResult } from './storedResults';
import { plural } from './engines/format';
import type { ExpansionParams } from './expansionParams';
import { assertExpansionOffered } from './results';

export interface QuoteInput {
  package_id: PackageId;
  slots?: Record<string, unknown>;
  output_fields?: string[];
  chat_id?: string;
  expansion_scope?: {
    parent_result_id: string;
    expansion_type: ExpansionType;
    expansion_params: Record<string, unknown>;
  };
}

/** What an expand request is bound to. */
export const expansionRequest = (parentResultId: string, type: ExpansionType, params: unknown) => ({
  parentResultId,
  type,
  params,
});

/** The identical-query key: same user (by where it is stored), package, slots and fields. */
export const identicalQueryHash = (request: ExecuteRequest): string =>
  requestHash({ packageId: request.packageId, slots: request.slots, outputFields: request.outputFields });

export async function quoteIntelligence(userId: string, input: QuoteInput) {
  if (input.chat_id) await requireChat(userId, input.chat_id);
  if (input.expansion_scope) return quoteExpansion(userId, input, input.expansion_scope);
  const request = executeRequest(input.package_id, input.slots ?? {}, input.output_fields);
  const pkg = PACKAGES[input.package_id];
  const limit = Number(request.slots.limit);
  const [ranked, previous] = await Promise.all([
    ENGINES[input.package_id].rank(request.slots),
    getIdenticalQueryResultId(userId, identicalQueryHash(request)),
  ]);
  const credits = executeCredits(pkg, limit);
  const { token, record } = await issueQuote({
    userId,
    kind: 'execute',
    packageId: pkg.id,
    credits,
    chatId: input.chat_id ?? null,
    request,
  });
  const returned = Math.min(limit, ranked.length);
  const summary =
    `Up to ${plural(limit, pkg.recordNoun.one, pkg.recordNoun.many)} with ${plural(request.outputFields.length, 'Tier 1 field')} (${request.outputFields.join(', ')}); ` +
    `${plural(ranked.length, 'candidate')} ${ranked.length === 1 ? 'matches' : 'match'}, so ${returned} would be returned. Charged after execution: ${pkg.price.base} + ${pkg.price.perRecord} per record returned ` +
    `(${executeCredits(pkg, returned)} for ${returned}), never more than ${credits}.` +
    (previous ? ' You already ran this exact query: executing returns that result at no cost.' : '');
  return {
    package_id: pkg.id,
    quote_token: token,
    credits,
    output_projection_summary: summary,
    expiry: record.expiresAt,
    filled_slots: request.slots,
    output_fields: request.outputFields,
    expansion_scope: null,
  };
}

export interface ExpansionPlan {
  credits: number;
  summary: string;
}

/** The exact price and description of an expansion of `parent` (shared by quote and expand). */
export async function planExpansion(
  userId: string,
  pkg: PackageDef,
  parent: LoadedResult,
  type: ExpansionType,
  params: ExpansionParams[ExpansionType],
): Promise<ExpansionPlan> {
  const records = parent.data.records;
  if (type === 'contact_unlock') {
    const p = params as ExpansionParams['contact_unlock'];
    const selected = selectRecords(records, p.selection, 'expansion_params');
    const plan = await planUnlock(userId, pkg, selected, p.contact_tier);
    return {
      credits: plan.credits,
      summary: `Unlocks ${p.contact_tier}-tier contacts for ${plural(selected.length, 'record')}: ${unlockTally(plan.lines)}. ${plan.credits} credits.`,
    };
  }
  if (type === 'network_depth') {
    const p = params as ExpansionParams['network_depth'];
    const selected = selectRecords(records, p.selection, 'expansion_params');
    const q = networkDepthQuote(selected.length);
    return {
      credits: q.credits,
      summary: `Co-investor network (shared rounds, shared portfolio companies, relationship strength) for ${plural(selected.length, 'fund')} at 20 credits each: ${q.credits} credits.`,
    };
  }
  const p = params as ExpansionParams['increase_limit'];
  const remaining = await remainingRanking(userId, parent);
  const q = increaseLimitQuote(pkg, remaining.length, p.blocks);
  return {
    credits: q.credits,
    summary: `The next ${plural(q.records, 'record')} of the same ranking (${p.blocks} block${p.blocks > 1 ? 's' : ''} of ${INCREASE_LIMIT_BLOCK}${remaining.length < increaseLimitRecords(p.blocks) ? `; only ${remaining.length} remain` : ''}) at ${pkg.price.perRecord} credits each: ${q.credits} credits.`,
  };
}

/** The root ranking without every record already served (by the execute and earlier increase_limit runs). */
export async function remainingRanking(userId: string, parent: LoadedResult) {
  // Read fresh every time: the served list moves with each increase_limit.
  const root = await getIntelligenceResult(userId, parent.intel.rootResultId);
  if (!root) throw new ValidationError('The original result of this expansion chain is gone.');
  const served = new Set(root.servedIds);
  const ranked = await ENGINES[root.packageId as PackageId].rank(root.slots);
  return Object.assign(
    ranked.filter((r) => !served.has(r.id)),
    { root },
  );
}

async function quoteExpansion(userId: string, input: QuoteInput, scope: NonNullable<QuoteInput['expansion_scope']>) {
  const parent = await loadIntelResult(userId, scope.parent_result_id);
  // The expansion runs on the parent's request: what the client repeats of it must agree with it.
  const sent = repeatedRequest(input.package_id, input.slots ?? {}, input.output_fields);
  const mismatches = parentMismatches(
    { packageId: parent.intel.packageId, slots: parent.intel.slots, outputFields: parent.intel.outputFields },
    sent,
  );
  if (mismatches.length) {
    throw new UnprocessableError(
      'quote_mismatch',
      'An expansion runs on its parent result’s package, slots and fields; leave them out or send the parent’s values.',
      mismatches,
    );
  }
  const pkg = PACKAGES[input.package_id];
  const params = parseExpansionParams(
    pkg,
    scope.expansion_type,
    scope.expansion_params,
    'expansion_scope.expansion_params',
  );
  assertExpansionOffered(pkg, parent.intel.expansionType, scope.expansion_type);
  const plan = await planExpansion(userId, pkg, parent, scope.expansion_type, params);
  const chatId = input.chat_id ?? parent.chatId;
  const { token, record } = await issueQuote({
    userId,
    kind: 'expand',
    packageId: pkg.id,
    credits: plan.credits,
    chatId,
    request: expansionRequest(scope.parent_result_id, scope.expansion_type, params),
  });
  return {
    package_id: pkg.id,
    quote_token: token,
    credits: plan.credits,
    output_projection_summary: plan.summary,
    expiry: record.expiresAt,
    filled_slots: parent.intel.slots,
    output_fields: parent.intel.outputFields,
    expansion_scope: {
      parent_result_id: scope.parent_result_id,
      expansion_type: scope.expansion_type,
      expansion_params: params as Record<string, unknown>,
    },
  };
}
