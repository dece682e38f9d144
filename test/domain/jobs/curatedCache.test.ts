import { describe, expect, it } from 'vitest';
import { cachedCuratedSource, type CuratedSource } from '#shared/domain/jobs/providers/curatedSource';

function countingSource(failFirst = false) {
  const calls: string[] = [];
  let failed = false;
  const source: CuratedSource = {
    companyByDomain: async (d) => {
      calls.push(`company:${d}`);
      if (failFirst && !failed) {
        failed = true;
        throw new Error('throttled');
      }
      return { id: `id-${d}`, name: d, domain: d, employeeCount: 1, sectors: [], location: null, description: null };
    },
    peopleAtCompany: async (id) => {
      calls.push(`people:${id}`);
      return [];
    },
    personByLinkedinUrl: async (u) => {
      calls.push(`profile:${u}`);
      return undefined;
    },
  };
  return { source, calls };
}

describe('cachedCuratedSource', () => {
  it('answers repeats from memory until the ttl passes', async () => {
    let t = 0;
    const { source, calls } = countingSource();
    const cached = cachedCuratedSource(source, { ttlMs: 1000, maxEntries: 10, now: () => t });
    await cached.companyByDomain('a.io');
    await cached.companyByDomain('a.io');
    await cached.peopleAtCompany('id-a.io');
    await cached.peopleAtCompany('id-a.io');
    expect(calls).toEqual(['company:a.io', 'people:id-a.io']);
    t = 1000;
    await cached.companyByDomain('a.io');
    expect(calls).toHaveLength(3);
  });

  it('drops the oldest entry beyond maxEntries and never remembers a failure', async () => {
    const { source, calls } = countingSource(true);
    const cached = cachedCuratedSource(source, { ttlMs: 60_000, maxEntries: 2 });
    await expect(cached.companyByDomain('a.io')).rejects.toThrow('throttled');
    expect((await cached.companyByDomain('a.io'))?.id).toBe('id-a.io');
    await cached.companyByDomain('b.io');
    await cached.companyByDomain('c.io');
    await cached.companyByDomain('a.io');
    expect(calls).toEqual(['company:a.io', 'company:a.io', 'company:b.io', 'company:c.io', 'company:a.io']);
  });
});
