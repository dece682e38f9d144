/**
 * vc-shortlist-v1: funds in the sector index, kept when their thesis or track record covers the stage
 * and they pass the optional filters, ranked by rounds led and joined in that sector and stage,
 * recency, cheque fit and tier.
 */
import {
  JURISDICTIONS,
  SECTORS,
  STAGES,
  termLabel,
  type SectorId,
  type StageId,
} from '#shared/domain/curated/taxonomy';
import { DATASET_AS_OF } from '#shared/domain/curated/model';
import { listFundsInSector, type FundInSector } from '#shared/store/curatedReads';
import type { StageRecord } from '#shared/domain/curated/fundStats';
import type { CanonicalSlots } from '#shared/domain/intelligence/slots';
import { daysBetween, listOf, monthYear, plural, sentence, usd } from './format';
import { byScore, num, rankedRecord, str, type PackageEngine, type RankedRecord } from './types';

/** How stages and fund types read inside a sentence ("seed", "Series A"; "corporate VC"). */
export const stagePhrase = (stage: string): string => (stage.startsWith('series') ? termLabel(STAGES, stage) : stage);
const FUND_TYPE_PHRASE: Record<string, string> = {
  vc: 'VC',
  angel_syndicate: 'angel syndicate',
  corporate: 'corporate VC',
  dao: 'investment DAO',
  accelerator: 'accelerator',
};
const jurisdictionPhrase = (id: string) =>
  (['united-states', 'united-kingdom', 'united-arab-emirates', 'cayman-islands', 'british-virgin-islands'].includes(id)
    ? 'the '
    : '') + termLabel(JURISDICTIONS, id);

const TIER_POINTS: Record<number, number> = { 1: 12, 2: 6, 3: 0 };

export function matchesFund(fund: FundInSector, slots: CanonicalSlots): boolean {
  const stage = slots.stage as StageId;
  const record = fund.sectorRecord[stage];
  if (!fund.stages.includes(stage) && !(record && record.led + record.joined > 0)) return false;
  if (slots.jurisdiction !== undefined && fund.jurisdiction !== slots.jurisdiction) return false;
  if (slots.fund_type !== undefined && fund.fundType !== slots.fund_type) return false;
  if (slots.tier !== undefined && fund.tier !== slots.tier) return false;
  const min = num(slots.min_investment);
  const max = num(slots.max_investment);
  if (min !== undefined && fund.maxChequeUsd < min) return false;
  if (max !== undefined && fund.minChequeUsd > max) return false;
  return true;
}

/** Share of the wanted cheque range the fund's range covers (1 when no range was asked for). */
function chequeFit(fund: FundInSector, min?: number, max?: number): number {
  if (min === undefined && max === undefined) return 1;
  const lo = min ?? 0;
  const hi = max ?? Math.max(fund.maxChequeUsd, lo);
  const overlap = Math.min(hi, fund.maxChequeUsd) - Math.max(lo, fund.minChequeUsd);
  return hi > lo ? Math.max(0, overlap) / (hi - lo) : overlap >= 0 ? 1 : 0;
}

export function scoreFund(fund: FundInSector, slots: CanonicalSlots): RankedRecord {
  const stage = slots.stage as StageId;
  const record: StageRecord = fund.sectorRecord[stage] ?? { led: 0, joined: 0, recent: 0, latest: null };
  const min = num(slots.min_investment);
  const max = num(slots.max_investment);
  const fit = chequeFit(fund, min, max);
  const age = record.latest ? daysBetween(record.latest.announcedOn, DATASET_AS_OF) : Infinity;
  const score =
    10 * record.led +
    4 * record.joined +
    6 * record.recent +
    (fund.stages.includes(stage) ? 8 : 0) +
    TIER_POINTS[fund.tier] +
    10 * fit +
    (age <= 180 ? 6 : age <= 365 ? 4 : age <= 730 ? 2 : 0);
  return rankedRecord(fund.id, score, () => describeFund(fund, slots, record, fit));
}

/** The fields of a fund in the shortlist: written for the funds a response shows, not every one scored. */
function describeFund(
  fund: FundInSector,
  slots: CanonicalSlots,
  record: StageRecord,
  fit: number,
): Record<string, unknown> {
  const sectorName = termLabel(SECTORS, slots.sector_focus as SectorId);
  const stageName = stagePhrase(slots.stage as StageId);
  const min = num(slots.min_investment);
  const max = num(slots.max_investment);
  const trackRecord =
    record.led > 0
      ? `led ${plural(record.led, `${sectorName} ${stageName} round`)}${record.joined ? ` and joined ${record.joined} more` : ''}`
      : record.joined > 0
        ? `joined ${plural(record.joined, `${sectorName} ${stageName} round`)} (no leads yet)`
        : `${stageName} ${sectorName} is in its stated thesis, though no such round is on record yet`;
  const latest = record.latest
    ? `latest: ${record.latest.companyName}, ${usd(record.latest.amountUsd)} in ${monthYear(record.latest.announcedOn)}${record.latest.led ? ' as lead' : ''}`
    : null;
  const recent = record.recent > 0 ? `${plural(record.recent, 'round')} in the last 18 months` : null;
  const cheques = `cheques ${usd(fund.minChequeUsd)}–${usd(fund.maxChequeUsd)}${min !== undefined || max !== undefined ? (fit >= 0.999 ? ' cover your range' : ` overlap ${Math.round(fit * 100)}% of your ${usd(min ?? 0)}–${max !== undefined ? usd(max) : 'any'} range`) : ''}`;
  const profile = `tier ${fund.tier} ${FUND_TYPE_PHRASE[fund.fundType] ?? fund.fundType} in ${jurisdictionPhrase(fund.jurisdiction)}`;
  const rationale = sentence([
    [trackRecord, latest && `(${latest})`].filter(Boolean).join(' '),
    recent,
    cheques,
    profile,
  ]);

  const sectors = fund.sectors.map((s) => termLabel(SECTORS, s));
  const inNiche = record.led + record.joined;
  const blurb = sentence([
    `${fund.name} has ${fund.roundCount ? `led ${fund.leadCount} of its ${plural(fund.roundCount, 'round')} on record (${Math.round((100 * fund.leadCount) / fund.roundCount)}% as lead)` : 'no rounds on record yet'} across ${listOf(sectors)}`,
    inNiche ? `${sectorName} at ${stageName} accounts for ${inNiche} of them` : null,
    fund.topCoInvestors?.length ? `most frequent co-investors: ${listOf(fund.topCoInvestors)}` : null,
    `founded ${fund.foundedYear}, based in ${fund.location}`,
  ]);
  return {
    name: fund.name,
    website: fund.website,
    focus_area: sectors.join(', '),
    tier: fund.tier,
    fund_type: fund.fundType,
    investment_stage: fund.stages.map((s) => termLabel(STAGES, s)).join(', '),
    jurisdiction: termLabel(JURISDICTIONS, fund.jurisdiction),
    tagline: fund.tagline,
    description: fund.description,
    intelligence_blurb: blurb,
    rationale,
  };
}

export const rankFunds = (funds: FundInSector[], slots: CanonicalSlots): RankedRecord[] =>
  funds
    .filter((f) => matchesFund(f, slots))
    .map((f) => scoreFund(f, slots))
    .sort(byScore);

export const vcShortlist: PackageEngine = {
  rank: async (slots) => rankFunds(await listFundsInSector(slots.sector_focus as SectorId), slots),
  summary(slots, records, candidates) {
    const sector = termLabel(SECTORS, str(slots.sector_focus) ?? '');
    const stage = stagePhrase(str(slots.stage) ?? '');
    if (records.length === 0) return `No fund in the dataset matches ${stage} ${sector} with these filters.`;
    const leaders = records.filter((r) => /^Led /.test(String(r.fields.rationale))).length;
    return `${plural(records.length, `${stage}-stage ${sector} investor`)} out of ${candidates} matching, ranked by rounds led and joined in ${sector} at ${stage}: ${records[0].fields.name} comes first, and ${leaders} of ${records.length} have led such a round.`;
  },
};
