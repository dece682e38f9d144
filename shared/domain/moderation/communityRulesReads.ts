/**
 * A community's rules as the engine applies them: the stored document with every setting it lacks
 * (one added since it was written, or the whole document when the owner never changed the rules)
 * filled in from the defaults. Filling in is a rule of the domain, so it happens here, not in the store.
 */
import { getStoredCommunityRules } from '#shared/store/communityRulesRepo';
import { DEFAULT_COMMUNITY_RULES, type CommunityRules, withDefaults } from './communityRules';

export async function getCommunityRules(communityId: string, consistent = false): Promise<CommunityRules> {
  const stored = await getStoredCommunityRules(communityId, consistent);
  return stored ? withDefaults(stored) : DEFAULT_COMMUNITY_RULES;
}
