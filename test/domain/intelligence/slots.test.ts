import { describe, expect, it } from 'vitest';
import { PACKAGES, type PackageDef } from '#shared/domain/intelligence/packages';
import { checkSlots, parseAmount } from '#shared/domain/intelligence/slots';
import { chequeRange, parseRequestText } from '#shared/domain/intelligence/requestText';
import { executeRequest } from '#shared/domain/intelligence/requests';
import { ValidationError } from '#shared/http/errors';

const vc: PackageDef = PACKAGES['vc-shortlist-v1'];
const kol: PackageDef = PACKAGES['kol-discovery-v1'];

describe('slot validation', () => {
  it('canonicalises synonyms and defaults limit', () => {
    const check = checkSlots(vc, {
      sector_focus: 'Decentralized Finance',
      stage: 'Series B',
      tier: 'tier 1',
      fund_type: 'angels',
    });
    expect(check.issues).toEqual([]);
    expect(check.slots).toEqual({
      fund_type: 'angel_syndicate',
      limit: 10,
      sector_focus: 'defi',
      stage: 'series-b-plus',
      tier: 1,
    });
    expect(check.missing).toEqual([]);
  });

  it('reports unknown slots, wrong types and out-of-range limits as issues', () => {
    const check = checkSlots(vc, { sector: 'defi', stage: 5, limit: 101, min_investment: '500k' });
    expect(check.issues.map((i) => i.path).sort()).toEqual([
      'slots.limit',
      'slots.min_investment',
      'slots.sector',
      'slots.stage',
    ]);
    expect(check.missing).toEqual(['sector_focus', 'stage']);
    expect(checkSlots(vc, { limit: 0 }).issues[0].message).toMatch(/between 1 and 100/);
    expect(checkSlots(PACKAGES['company-people-discovery-v1'], { company_name: 'x', limit: 51 }).issues).toHaveLength(
      1,
    );
  });

  it('treats names inherited from Object.prototype as unknown slots', () => {
    const check = checkSlots(vc, { constructor: 'defi', toString: 'x', hasOwnProperty: 1, valueOf: 'seed' });
    expect(check.issues.map((i) => i.path).sort()).toEqual([
      'slots.constructor',
      'slots.hasOwnProperty',
      'slots.toString',
      'slots.valueOf',
    ]);
    expect(check.slots).toEqual({ limit: 10 });
  });

  it('keeps values the taxonomy does not know apart from malformed ones', () => {
    const check = checkSlots(vc, { sector_focus: 'underwater basket weaving', stage: 'seed' });
    expect(check.issues).toEqual([]);
    expect(check.misunderstood.map((i) => i.path)).toEqual(['slots.sector_focus']);
    expect(check.missing).toEqual(['sector_focus']);
  });

  it('reads thresholds written as text and rejects an inverted cheque range', () => {
    expect(checkSlots(kol, { sector_focus: 'defi', min_followers: '10k', min_gm_score: 500 }).slots).toMatchObject({
      min_followers: 10_000,
      min_gm_score: 500,
    });
    expect(
      checkSlots(vc, { sector_focus: 'defi', stage: 'seed', min_investment: 2e6, max_investment: 1e6 }).issues[0].path,
    ).toBe('slots.min_investment');
    expect(parseAmount('$1.5M')).toBe(1_500_000);
    expect(parseAmount('50%')).toBe(0.5);
  });

  it('refuses output fields the package does not have, and orders the rest as the package does', () => {
    expect(() =>
      executeRequest('vc-shortlist-v1', { sector_focus: 'defi', stage: 'seed' }, ['name', 'followers_count']),
    ).toThrow(ValidationError);
    expect(
      executeRequest('vc-shortlist-v1', { sector_focus: 'defi', stage: 'seed' }, ['rationale', 'name', 'name'])
        .outputFields,
    ).toEqual(['name', 'rationale']);
  });
});

describe('request_text parsing', () => {
  it('reads count, stage, sector, cheque range and fund type for a VC shortlist', () => {
    expect(
      parseRequestText(
        vc,
        'Find 25 seed-stage decentralized finance angel syndicates writing $500k-$2M cheques, tier 1 only',
      ),
    ).toEqual({
      limit: 25,
      sector_focus: 'defi',
      stage: 'seed',
      min_investment: 500_000,
      max_investment: 2_000_000,
      fund_type: 'angel_syndicate',
      tier: '1',
    });
  });

  it('reads follower thresholds, platform and location for KOLs without mistaking amounts for counts', () => {
    expect(parseRequestText(kol, '15 gaming KOLs on YouTube with 50k+ followers in Singapore')).toEqual({
      limit: 15,
      sector_focus: 'gaming',
      platform: 'youtube',
      min_followers: 50_000,
      location: 'Singapore',
    });
    expect(parseRequestText(kol, 'DeFi KOLs with over 100,000 followers').limit).toBeUndefined();
  });

  it('needs short words in capitals, so prose does not become slots', () => {
    expect(parseRequestText(vc, 'help us find investors who did AI deals')).toEqual({ sector_focus: 'ai' });
    expect(chequeRange('at least $1M')).toEqual({ min: 1_000_000 });
    expect(chequeRange('up to $750k')).toEqual({ max: 750_000 });
  });

  it('reads audiences through the sector synonyms', () => {
    expect(
      parseRequestText(
        PACKAGES['user-prospect-v1'],
        '50 web3 gamers and NFT collectors in Europe with engagement above 0.6',
      ),
    ).toEqual({
      limit: 50,
      sector_interest: 'NFTs and digital collectibles, Gaming',
      location: 'Europe',
      min_engagement: 0.6,
    });
  });

  it('finds company, fund and hackathon names and builder types', () => {
    expect(
      parseRequestText(PACKAGES['company-people-discovery-v1'], 'engineers at Nebula Labs in Berlin'),
    ).toMatchObject({ company_name: 'Nebula Labs', role_focus: 'engineering', location: 'Berlin' });
    expect(
      parseRequestText(PACKAGES['warm-intro-paths-v1'], 'warm intros to Polaris Ventures via DeFi founders'),
    ).toMatchObject({ target_fund_name: 'Polaris Ventures', sector_focus: 'defi' });
    expect(
      parseRequestText(PACKAGES['hackathon-builder-v1'], 'Solana builders who did ETHGlobal Bangkok, Rust and Anchor'),
    ).toMatchObject({ ecosystem: 'solana', hackathon_name: 'ETHGlobal Bangkok', skills: 'Rust, Anchor' });
    expect(parseRequestText(PACKAGES['builder-discovery-v1'], '20 ZK engineers on Starknet')).toMatchObject({
      limit: 20,
      category: 'zk-engineer',
      ecosystem: 'starknet',
    });
  });
});
