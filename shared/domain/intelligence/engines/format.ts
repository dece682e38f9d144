/** Wording helpers for rationales, blurbs and summaries: numbers and dates read the way an analyst writes them. */

/** 3_100_000 → "$3.1M", 500_000 → "$500k", 12_000 → "$12k". */
export function usd(amount: number): string {
  if (amount >= 1e9) return `$${trim(amount / 1e9)}B`;
  if (amount >= 1e6) return `$${trim(amount / 1e6)}M`;
  if (amount >= 1e3) return `$${trim(amount / 1e3)}k`;
  return `$${Math.round(amount)}`;
}
const trim = (n: number) => (Math.round(n * 10) / 10).toString();

/** 184_000 → "184k", 1_250_000 → "1.3M". */
export const compact = (n: number): string =>
  n >= 1e6 ? `${trim(n / 1e6)}M` : n >= 1e3 ? `${trim(n / 1e3)}k` : String(n);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "2026-01-15" → "Jan 2026". */
export const monthYear = (isoDay: string): string => `${MONTHS[Number(isoDay.slice(5, 7)) - 1]} ${isoDay.slice(0, 4)}`;

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** ["a", "b", "c"] → "a, b and c". */
export function listOf(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export const sentence = (parts: (string | false | null | undefined)[]): string => {
  const text = parts.filter(Boolean).join('; ');
  return text ? `${text[0].toUpperCase()}${text.slice(1)}.` : '';
};

/** Days between two YYYY-MM-DD dates. */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** Case-insensitive match of a free-text place against "City, Country" (region names match their places). */
export function inPlace(
  entityLocation: string,
  wanted: string,
  regionOf: (location: string) => string | undefined,
): boolean {
  const w = wanted.toLowerCase();
  return entityLocation.toLowerCase().includes(w) || regionOf(entityLocation)?.toLowerCase() === w;
}
