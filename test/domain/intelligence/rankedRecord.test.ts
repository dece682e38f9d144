import { describe, expect, it, vi } from 'vitest';
import { rankedRecord } from '#shared/domain/intelligence/engines/types';
import { rankActiveBuilders } from '#shared/domain/intelligence/engines/builders';
import { generateDataset } from '#bin/curated/generator';

describe('ranked records', () => {
  it('write their fields only when read, once, and round the score to cents', () => {
    const write = vi.fn(() => ({ name: 'Ada' }));
    const record = rankedRecord('per-1', 12.3456, write);
    expect(record).toMatchObject({ id: 'per-1', score: 12.35 });
    expect(write).not.toHaveBeenCalled();
    expect(record.fields).toEqual({ name: 'Ada' });
    expect(record.fields).toBe(record.fields);
    expect(write).toHaveBeenCalledTimes(1);
    expect(JSON.parse(JSON.stringify(record))).toEqual({ id: 'per-1', score: 12.35, fields: { name: 'Ada' } });
  });

  it('a ranking writes the text of the records a response shows, not of every candidate', () => {
    const described = new Set<string>();
    // The description only goes into a record's fields, never into its score.
    const builders = generateDataset({ scale: 0.05 }).builders.map(
      (b) =>
        new Proxy(b, {
          get: (target, key) => {
            if (key === 'description') described.add(target.id);
            return Reflect.get(target, key);
          },
        }),
    );
    const ranked = rankActiveBuilders(builders, {});
    expect(ranked.length).toBeGreaterThan(10);
    expect(described.size).toBe(0);
    const shown = ranked.slice(0, 10).map((r) => r.fields);
    expect(shown.every((f) => typeof f.rationale === 'string' && typeof f.description === 'string')).toBe(true);
    expect([...described].sort()).toEqual(
      ranked
        .slice(0, 10)
        .map((r) => r.id)
        .sort(),
    );
  });
});
