/**
 * POST .../communities/{id}/check: messages judged as the community would judge them now (rules,
 * sensitivity, lists, what it was taught), each alone, from a member with no earlier offences and no
 * recent messages. Nothing is acted on, counted, recorded or remembered.
 */
import { now } from '#shared/adapters/ports';
import { getCommunityRules } from './communityRulesReads';
import { actionFor, type ModerationAction } from './actions';
import { requireCommunity } from './communityReads';
import { ruleSetOf } from './communityRules';
import { judge } from './detector/detector';
import { detectorContextFor } from './detectorContext';
import { exemption, policyOf } from './engine';

export interface MessageToCheck {
  text: string;
  is_new_member: boolean;
  username?: string;
  display_name?: string;
}

export async function checkMessages(userId: string, communityId: string, messages: MessageToCheck[]) {
  const community = await requireCommunity(userId, communityId);
  const rules = ruleSetOf(await getCommunityRules(communityId));
  const context = await detectorContextFor(
    community,
    rules,
    messages.map((m) => m.text),
  );
  const policy = policyOf(community);
  const sentAt = now().getTime();
  return {
    results: messages.map((m) => {
      const judged = judge(
        {
          text: m.text,
          sentAt,
          isNewMember: m.is_new_member,
          recent: [],
          username: m.username,
          displayName: m.display_name,
        },
        rules,
        context,
      );
      // A whitelisted sender is let through whatever the score, as the community would.
      const exempt = exemption(policy, { id: 'check', username: m.username });
      const action: ModerationAction =
        judged.weight && !exempt ? actionFor(judged.weight, 0, rules.warnLimit) : 'allow';
      return {
        verdict: action === 'allow' ? ('ham' as const) : ('spam' as const),
        action,
        score: judged.score,
        signals: judged.signals.map(({ id, label }) => ({ id, label })),
      };
    }),
  };
}
