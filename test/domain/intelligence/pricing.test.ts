import { describe, expect, it } from 'vitest';
import { PACKAGES, PACKAGE_IDS, type PackageDef } from '#shared/domain/intelligence/packages';
import { channelsAt, executeCredits, tierOffered, unlockCredits } from '#shared/domain/intelligence/pricing';
import { priceUnlock, rememberUnlocks } from '#shared/domain/intelligence/expansions';

const pkg = (id: keyof typeof PACKAGES): PackageDef => PACKAGES[id];

describe('package prices', () => {
  it('charges base + per record for every package, matching the spec examples', () => {
    const examples: [keyof typeof PACKAGES, number, number][] = [
      ['vc-shortlist-v1', 10, 200],
      ['company-people-discovery-v1', 5, 75],
      ['warm-intro-paths-v1', 10, 300],
      ['builder-discovery-v1', 10, 100],
      ['kol-discovery-v1', 10, 200],
      ['user-prospect-v1', 10, 100],
      ['hackathon-builder-v1', 10, 100],
    ];
    for (const [id, records, credits] of examples) expect(executeCredits(pkg(id), records), id).toBe(credits);
    expect(examples.map(([id]) => id).sort()).toEqual([...PACKAGE_IDS].sort());
  });

  it('has the published limits and names every required slot, limit included', () => {
    for (const p of Object.values(PACKAGES) as PackageDef[]) {
      expect(p.slots.limit.required).toBe(true);
      expect(p.limit.max).toBe(p.id === 'company-people-discovery-v1' ? 50 : 100);
      expect(p.fields.at(-1)).toBe('rationale');
    }
    expect(pkg('warm-intro-paths-v1').expansions).not.toContain('increase_limit');
    expect(pkg('vc-shortlist-v1').expansions).toContain('network_depth');
  });
});

describe('contact unlock ladder', () => {
  it('charges the tier price, the difference from a lower tier, and nothing at or above the tier', () => {
    expect(unlockCredits('email', null)).toBe(100);
    expect(unlockCredits('telegram', 'email')).toBe(200);
    expect(unlockCredits('phone', 'social')).toBe(550);
    expect(unlockCredits('email', 'email')).toBe(0);
    expect(unlockCredits('social', 'phone')).toBe(0);
  });

  it('prices a selection against the unlock memory, and the memory only moves up', () => {
    const memory = { a: 'social', b: 'email', c: 'phone' };
    const price = priceUnlock(['a', 'b', 'c', 'd'], 'email', memory);
    expect(price.lines.map((l) => l.credits)).toEqual([50, 0, 0, 100]);
    expect(price.credits).toBe(150);
    expect(rememberUnlocks(memory, ['a', 'c', 'd'], 'email')).toEqual({
      a: 'email',
      b: 'email',
      c: 'phone',
      d: 'email',
    });
  });

  it('reveals only the channels the package offers, each tier including those below', () => {
    expect(channelsAt('social', pkg('vc-shortlist-v1')).sort()).toEqual(['linkedin', 'x']);
    expect(channelsAt('phone', pkg('vc-shortlist-v1')).sort()).toEqual(['email', 'linkedin', 'phone', 'telegram', 'x']);
    expect(channelsAt('telegram', pkg('kol-discovery-v1')).sort()).toEqual(['email', 'linkedin', 'telegram']);
    expect(channelsAt('social', pkg('hackathon-builder-v1')).sort()).toEqual(['github', 'linkedin', 'x']);
    expect(tierOffered('phone', pkg('hackathon-builder-v1'))).toBe(false);
    expect(tierOffered('phone', pkg('builder-discovery-v1'))).toBe(true);
  });
});
