import type { CuratedFund, CuratedRound } from './model';
import type { SectorId, StageId } from './taxonomy';

/** A fund's track record in one sector and stage: what a shortlist ranks on and cites. */
export interface StageRecord {
  led: number;
  joined: number;
  /** The newest round in this sector and stage (led or joined). */
  latest: { companyName: string; announcedOn: string; amountUsd: number; led: boolean } | null;
  /** Rounds in the 18 months before the dataset's date. */
  recent: number;
}

export type SectorRecord = Partial<Record<StageId, StageRecord>>;

const monthsBefore = (isoDay: string, months: number) => {
  const d = new Date(`${isoDay}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString().slice(0, 10);
};

/**
 * The fund's rounds in `sector` grouped by stage. Stored with the fund's sector index item when the
 * data is written, so ranking a sector needs one Query and no per-fund reads.
 */
export function sectorRecord(fund: Pick<CuratedFund, 'id' | 'rounds'>, sector: SectorId, asOf: string): SectorRecord {
  const since = monthsBefore(asOf, 18);
  const record: SectorRecord = {};
  for (const round of fund.rounds as CuratedRound[]) {
    if (round.sector !== sector) continue;
    const led = round.leadFundId === fund.id;
    const entry = record[round.stage] ?? { led: 0, joined: 0, latest: null, recent: 0 };
    record[round.stage] = entry;
    if (led) entry.led += 1;
    else entry.joined += 1;
    if (round.announcedOn >= since) entry.recent += 1;
    if (!entry.latest || round.announcedOn > entry.latest.announcedOn) {
      entry.latest = {
        companyName: round.companyName,
        announcedOn: round.announcedOn,
        amountUsd: round.amountUsd,
        led,
      };
    }
  }
  return record;
}

/** Rounds the fund led, and the funds it most often shares rounds with (names, most frequent first). */
export function fundProfileStats(fund: Pick<CuratedFund, 'id' | 'rounds'>): {
  leadCount: number;
  topCoInvestors: string[];
} {
  const together = new Map<string, number>();
  let leadCount = 0;
  for (const round of fund.rounds) {
    if (round.leadFundId === fund.id) leadCount += 1;
    for (const other of round.investors)
      if (other.id !== fund.id) together.set(other.name, (together.get(other.name) ?? 0) + 1);
  }
  const topCoInvestors = [...together.entries()]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, 3)
    .map(([name]) => name);
  return { leadCount, topCoInvestors };
}
