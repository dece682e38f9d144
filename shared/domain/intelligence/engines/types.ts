import type { CanonicalSlots } from '#shared/domain/intelligence/slots';
import type { Read } from '#shared/store/batch';
import { LOCATIONS } from '#shared/domain/curated/taxonomy';

/** One ranked candidate: its id, score, the sentence saying why, and every Tier 1 field. */
export interface RankedRecord {
  id: string;
  score: number;
  fields: Record<string, unknown>;
}

/** How one package turns slots into a ranking over the curated data. */
export interface PackageEngine {
  /** Every candidate that matches the slots, best first (ties by id, so the order is stable). */
  rank(slots: CanonicalSlots): Promise<RankedRecord[]>;
  /**
   * For a ranking that reads items a lookup names first (a fund by its name): the lookup, then those
   * items as a read its caller sends with its own, then the ranking from them, as rank gives it. An
   * execute sends that read with the quote's token: one request instead of two after the lookup.
   */
  prepare?(slots: CanonicalSlots): Promise<PreparedRanking<unknown>>;
  /** One sentence about the records returned (out of `candidates` matching). */
  summary(slots: CanonicalSlots, records: RankedRecord[], candidates: number): string;
}

/** A ranking waiting for the items it reads (PackageEngine.prepare). */
export interface PreparedRanking<T> {
  read: Read<T>;
  rank(value: T): Promise<RankedRecord[]>;
}

/**
 * A ranked candidate whose fields (its sentences and blurb) are written only when read: a ranking
 * scores every candidate, a response shows `limit` of them, and writing the text for all of them was
 * most of a ranking's time. A class, not an object literal with a getter: V8 builds those about
 * twenty times slower, which showed on rankings of thousands.
 */
class LazyRecord implements RankedRecord {
  #fields: Record<string, unknown> | undefined;
  readonly #write: () => Record<string, unknown>;
  constructor(
    readonly id: string,
    readonly score: number,
    write: () => Record<string, unknown>,
  ) {
    this.#write = write;
  }
  get fields(): Record<string, unknown> {
    this.#fields ??= this.#write();
    return this.#fields;
  }
  /** Serialised like a plain record (the getter lives on the prototype, which JSON.stringify skips). */
  toJSON(): RankedRecord {
    return { id: this.id, score: this.score, fields: this.fields };
  }
}

export const rankedRecord = (id: string, score: number, fields: () => Record<string, unknown>): RankedRecord =>
  new LazyRecord(id, Math.round(score * 100) / 100, fields);

export const byScore = (a: RankedRecord, b: RankedRecord): number => b.score - a.score || a.id.localeCompare(b.id);

export const regionOf = (location: string): string | undefined =>
  LOCATIONS.find((l) => location.startsWith(l.city))?.region;

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
