import { describe, expect, it } from 'vitest';
import { actionFor } from '#shared/domain/moderation/actions';
import { DEFAULT_COMMUNITY_RULES, mergeRules, ruleSetOf } from '#shared/domain/moderation/communityRules';
import { AUTOMOD_LIMITS, automodRulesFor } from '#shared/platforms/discord/automod';
import { DEFAULT_RULES } from '#shared/domain/moderation/rules';

describe('warn limit', () => {
  it('stretches the warning rung; a severe breach starts at the mute whatever the limit', () => {
    expect([0, 1, 2, 3].map((prior) => actionFor('offence', prior))).toEqual(['warn', 'mute', 'ban', 'ban']);
    expect([0, 1, 2, 3, 4].map((prior) => actionFor('offence', prior, 3))).toEqual([
      'warn',
      'warn',
      'warn',
      'mute',
      'ban',
    ]);
    expect([0, 1].map((prior) => actionFor('offence', prior, 0))).toEqual(['mute', 'ban']);
    expect([0, 1].map((prior) => actionFor('severe', prior, 3))).toEqual(['mute', 'ban']);
    expect(actionFor('minor', 5, 3)).toBe('delete');
  });
});

describe('ruleSetOf', () => {
  it('the defaults are the built-in rule set', () => {
    const set = ruleSetOf(DEFAULT_COMMUNITY_RULES);
    expect(set.rules.map((r) => r.id)).toEqual(DEFAULT_RULES.rules.map((r) => r.id));
    expect(set.newMemberDays).toBe(DEFAULT_RULES.newMemberDays);
  });

  it('drops disabled rules, applies thresholds and widens the memory window to the longest rule window', () => {
    const doc = mergeRules(DEFAULT_COMMUNITY_RULES, {
      rules: { shouting: { enabled: false }, repeated_message: { window_seconds: 3600 } },
      new_member_days: 7,
    });
    const set = ruleSetOf(doc);
    expect(set.rules.map((r) => r.id)).not.toContain('shouting');
    expect(set.rules.find((r) => r.id === 'repeated_message')).toMatchObject({ windowSeconds: 3600, maxCopies: 2 });
    expect(set.memoryWindowSeconds).toBe(3600);
    expect(set.newMemberDays).toBe(7);
  });
});

describe('AutoMod rule bodies', () => {
  it("stay within Discord's limits however large the community's lists", () => {
    const doc = mergeRules(DEFAULT_COMMUNITY_RULES, {
      blocked_words: Array.from({ length: 1000 }, (_, i) => `word${i}`),
      link_allowlist: Array.from({ length: 100 }, (_, i) => `d${i}.example.com`),
    });
    const roles = Array.from({ length: 30 }, (_, i) => String(1000 + i));
    const bodies = automodRulesFor(doc, { whitelistedRoleIds: roles }, '42', {
      builtInRules: DEFAULT_RULES.rules,
      phishingDomains: [],
      enforce: true,
    });
    for (const body of bodies) {
      const meta = body.trigger_metadata ?? {};
      expect(meta.keyword_filter?.length ?? 0).toBeLessThanOrEqual(AUTOMOD_LIMITS.keywords);
      expect(meta.regex_patterns?.length ?? 0).toBeLessThanOrEqual(AUTOMOD_LIMITS.regexPatterns);
      expect(meta.allow_list?.length ?? 0).toBeLessThanOrEqual(AUTOMOD_LIMITS.allowList);
      expect(body.exempt_roles).toHaveLength(AUTOMOD_LIMITS.exemptRoles);
    }
    expect(bodies.filter((b) => b.trigger_type === 3)).toHaveLength(1);
    expect(bodies.filter((b) => b.trigger_type === 5)).toHaveLength(1);
    // Spam rules cannot time out: only block and alert.
    expect(bodies.find((b) => b.trigger_type === 3)!.actions.map((a) => a.type)).toEqual([1, 2]);
  });
});
