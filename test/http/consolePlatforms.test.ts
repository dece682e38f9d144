import { describe, expect, it } from 'vitest';
import { PLATFORM_FACTS } from '../../console/platforms';
import { COMMUNITY_TYPES } from '#shared/domain/moderation/communityTypes';
import { PLATFORMS } from '#shared/platforms/registry';

describe("the console's facts about each platform", () => {
  it('name every community type, and offer a captcha exactly where the rules accept one', () => {
    expect(Object.keys(PLATFORM_FACTS).sort()).toEqual([...COMMUNITY_TYPES].sort());
    // rulesSettings.ts refuses a captcha on a platform that tells no one about joins (no welcome).
    for (const type of COMMUNITY_TYPES)
      expect(PLATFORM_FACTS[type].captcha, type).toBe(PLATFORMS[type].welcome !== null);
  });

  it("fill the community's own token and links into the connect steps", () => {
    const links = { token: 'tok123', install_url: 'https://discord.example/invite', authorize_url: null };
    expect(PLATFORM_FACTS.telegram.connect(links).map((s) => s.command)).toContain('/activate tok123');
    expect(PLATFORM_FACTS.discord.connect(links)[0].link?.href).toBe(links.install_url);
    expect(PLATFORM_FACTS.x.connect(links)[0].link).toBeUndefined();
  });
});
