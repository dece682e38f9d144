import { describe, expect, it } from 'vitest';
import { cutText } from '#shared/graphemes';
import { emptyMemberState, moderateEvent, policyOf } from '#shared/domain/moderation/engine';

const broken = (s: string) => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

describe('cutting text on whole characters', () => {
  it('keeps text that fits, and never splits an emoji, a flag or an accented letter', () => {
    expect(cutText('short', 10, '…')).toBe('short');
    const family = '👨‍👩‍👧'; // eight code units, one character
    expect(cutText(`ab${family}cd`, 6, '…')).toBe('ab…');
    expect(cutText(`ab${family}cd`, 11, '…')).toBe(`ab${family}…`);
    expect(cutText('🇫🇷🇫🇷', 5)).toBe('🇫🇷');
    expect(cutText('e\u0301e\u0301e\u0301', 3)).toBe('e\u0301');
    for (let max = 1; max < 30; max++) expect(broken(cutText('😀'.repeat(20), max, '…'))).toBe(false);
  });

  it('an audit excerpt of a long message ends on a whole emoji', () => {
    const text = `${'a'.repeat(198)}😀😀 Claim your airdrop now`;
    const policy = policyOf({
      billingState: 'active',
      activatedAt: '2026-11-01T00:00:00.000Z',
      whitelistedUsernames: [],
      whitelistedRoleIds: [],
      shouldSendWelcomeMessages: false,
      welcomeMessage: null,
      alertTemplate: null,
    });
    const out = moderateEvent(policy, emptyMemberState(), {
      event_id: 'e1',
      type: 'message',
      user: { id: 'u1', username: 'spammer' },
      text,
      sent_at: '2026-11-22T10:00:00.000Z',
    });
    expect(out.decision).toMatchObject({ action: 'mute' });
    const excerpt = out.audit?.message_excerpt ?? '';
    expect(excerpt.endsWith('…')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(200);
    expect(broken(excerpt)).toBe(false);
  });
});
