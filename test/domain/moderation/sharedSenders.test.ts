import { describe, expect, it } from 'vitest';
import { sharesSenders } from '#shared/domain/moderation/detectorContext';
import { COMMUNITY_TYPES, type CommunityType } from '#shared/platforms/names';

describe('platforms whose account ids name one account everywhere', () => {
  it('are Telegram, Reddit and X', () => {
    expect(COMMUNITY_TYPES.filter(sharesSenders)).toEqual(['telegram', 'reddit', 'x']);
  });

  it('never include a name the prototype knows', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(sharesSenders(name as CommunityType)).toBe(false);
  });
});
