import { ValidationError } from '#shared/domain/errors';
import type { LedgerEntry } from '#shared/store/walletRepo';

const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 366;
const round2 = (n: number) => Math.round(n * 100) / 100;
const dateOf = (d: Date) => d.toISOString().slice(0, 10);

function parseDay(value: string, field: string): Date {
  const d = new Date(`${value}T00:00:00.000Z`);
  if (Number.isNaN(d.getTime()) || dateOf(d) !== value)
    throw new ValidationError(`${field} is not a valid date.`, [
      { path: `query.${field}`, message: 'Expected a real calendar date as YYYY-MM-DD' },
    ]);
  return d;
}

/** The date range of a usage request: end defaults to today, start to 30 days before end. */
export function usageRange(today: Date, startDate?: string, endDate?: string) {
  const end = endDate ? parseDay(endDate, 'end_date') : parseDay(dateOf(today), 'end_date');
  const start = startDate ? parseDay(startDate, 'start_date') : new Date(end.getTime() - 30 * DAY_MS);
  if (start > end)
    throw new ValidationError('start_date is after end_date.', [
      { path: 'query.start_date', message: 'Must not be after end_date' },
    ]);
  const days = Math.round((end.getTime() - start.getTime()) / DAY_MS) + 1;
  if (days > MAX_RANGE_DAYS)
    throw new ValidationError(`The range covers ${days} days; at most ${MAX_RANGE_DAYS} are allowed.`, [
      { path: 'query.start_date', message: 'Range too long' },
    ]);
  return { start, end, days, fromIso: start.toISOString(), toIso: endOfDayBound(end) };
}

/**
 * The exclusive upper bound of the ledger read: the next day's midnight. After 9999-12-31 that is year
 * 10000, whose ISO form (`+010000-...`) sorts before every four-digit year and made the read's range
 * inverted; the same instant written as the day's 24:00 sorts after each of its entries.
 */
function endOfDayBound(end: Date): string {
  const next = new Date(end.getTime() + DAY_MS);
  return next.getUTCFullYear() <= 9999 ? next.toISOString() : `${dateOf(end)}T24:00:00.000Z`;
}

/** Usage analytics from ledger entries (pure). Refunds are negative entries and net out. */
export function summarizeUsage(entries: LedgerEntry[], range: ReturnType<typeof usageRange>, allowance: number | null) {
  const byDay = new Map<string, number>();
  for (let i = 0; i < range.days; i++) byDay.set(dateOf(new Date(range.start.getTime() + i * DAY_MS)), 0);
  const byTool = new Map<string, number>();
  let total = 0;
  for (const e of entries) {
    total += e.credits;
    const day = e.created_at.slice(0, 10);
    const sofar = byDay.get(day);
    if (sofar !== undefined) byDay.set(day, sofar + e.credits);
    byTool.set(e.tool_name, (byTool.get(e.tool_name) ?? 0) + e.credits);
  }
  const tools = [...byTool.entries()]
    .map(([tool_name, credits]) => ({ tool_name, credits }))
    .sort((a, b) => b.credits - a.credits || a.tool_name.localeCompare(b.tool_name));
  const averageDaily = round2(total / range.days);
  return {
    start_date: dateOf(range.start),
    end_date: dateOf(range.end),
    total_used: total,
    allowance,
    percentage_used: allowance ? round2((100 * total) / allowance) : null,
    average_daily: averageDaily,
    projected: range.days < 7 ? null : Math.round(averageDaily * 30),
    top_tool: tools.find((t) => t.credits > 0)?.tool_name ?? null,
    by_tool: tools,
    by_day: [...byDay.entries()].map(([date, credits]) => ({ date, credits })),
  };
}
