import { describe, expect, it } from 'vitest';
import { parentMismatches, type ParentRequest } from '#shared/domain/intelligence/parentMatch';

const parent: ParentRequest = {
  packageId: 'vc-shortlist-v1',
  slots: { limit: 5, sector_focus: 'defi', stage: 'seed' },
  outputFields: ['name', 'website', 'rationale'],
};

describe('parentMismatches', () => {
  it('accepts a request that repeats the parent, in full or in part', () => {
    expect(
      parentMismatches(parent, {
        packageId: 'vc-shortlist-v1',
        slots: { limit: 5, sector_focus: 'defi', stage: 'seed' },
        outputFields: ['name', 'website', 'rationale'],
      }),
    ).toEqual([]);
    expect(parentMismatches(parent, { packageId: 'vc-shortlist-v1', slots: { stage: 'seed' } })).toEqual([]);
    expect(parentMismatches(parent, { packageId: 'vc-shortlist-v1', slots: {}, outputFields: ['name'] })).toEqual([]);
  });

  it('names every contradiction: package, differing slot, slot the parent lacks, field the parent lacks', () => {
    const issues = parentMismatches(parent, {
      packageId: 'kol-discovery-v1',
      slots: { sector_focus: 'defi', stage: 'series-a', tier: 1, limit: 10 },
      outputFields: ['name', 'tagline'],
    });
    expect(issues.map((i) => i.path)).toEqual([
      'package_id',
      'slots.stage',
      'slots.tier',
      'slots.limit',
      'output_fields',
    ]);
    expect(issues[1].message).toBe('The parent result has "seed"; this request has "series-a"');
    expect(issues[2].message).toBe('The parent result has no value; this request has 1');
    expect(issues[4].message).toMatch(/no field "tagline"/);
  });

  it('does not read slot names inherited from Object.prototype as parent values', () => {
    expect(
      parentMismatches(parent, { packageId: 'vc-shortlist-v1', slots: { constructor: 'x' } }).map((i) => i.path),
    ).toEqual(['slots.constructor']);
  });
});
