/**
 * An activation token binds once. A token is typed where others can read it (a Telegram group, a Crisp
 * conversation the visitor sees), so once it has bound its community to a place it binds nothing else:
 * not another chat, guild, subreddit or website, nor an alert chat. The place it bound may present it
 * again (a repeated `/activate`, a platform read retried), which changes nothing. The owner moves a
 * community on purpose with a fresh token (`POST .../activation-token`).
 */
import { now } from '#shared/adapters/ports';
import { ConflictError, NotFoundError, UnprocessableError } from '#shared/domain/errors';
import {
  getCommunity,
  LIVE_TOKEN,
  moveActivationTokenUse,
  reissueActivationTokenItem,
  type CommunityRecord,
} from '#shared/store/communitiesRepo';
import {
  communityByActivationToken,
  deleteActivationPointer,
  putActivationPointer,
} from '#shared/store/activationPointersRepo';
import { writeIfCondition } from '#shared/store/client';
import { writeTogether } from '#shared/store/transactions';
import type { CommunityType } from './communityTypes';
import type { TokenBinding, TokenUse } from '#shared/platforms/contract';
import { requireCommunity, newActivationToken } from './communityReads';
import { bindAlertPlace, bindModeratedPlace } from './binding';
import { sameSecret } from '#shared/ids';

export type { TokenBinding, TokenUse };

const useKey = (use: TokenUse) => `${use.role}:${use.place}`;

/** Items from before tokens bound once: an activated community's token is spent, on no place it could name. */
const useOf = (c: Pick<CommunityRecord, 'activationTokenUse' | 'activatedAt'>): string =>
  c.activationTokenUse ?? (c.activatedAt ? 'spent' : LIVE_TOKEN);

/** Whether the token may still do `use`: it is live, or it is what the token already did. */
export const tokenMayDo = (c: Pick<CommunityRecord, 'activationTokenUse' | 'activatedAt'>, use: TokenUse): boolean =>
  useOf(c) === LIVE_TOKEN || useOf(c) === useKey(use);

/** The community of `type` whose own token this is, or undefined (an unknown token, another type's, a replaced one). */
export async function communityOfToken(token: string, type: CommunityType): Promise<CommunityRecord | undefined> {
  const pointer = token ? await communityByActivationToken(token) : undefined;
  const community = pointer && (await getCommunity(pointer.userId, pointer.communityId));
  if (community?.type !== type || !community.activationToken || !sameSecret(token, community.activationToken))
    return undefined;
  return community;
}

/** Whether `use` changes what the token may do: not when it is what the token did, nor an alert chat named before activation. */
const recordsUse = (c: CommunityRecord, use: TokenUse): boolean =>
  useOf(c) !== useKey(use) && !(use.role === 'alerts' && !c.activatedAt);

/**
 * Spends the token on `use` (true), or finds it spent elsewhere or taken by a place presenting it at the
 * same moment (false). Spending an alert place before the community is bound leaves it live: the owner
 * may name the alert chat first and then activate.
 */
async function spend(c: CommunityRecord, token: string, use: TokenUse): Promise<boolean> {
  if (!tokenMayDo(c, use)) return false;
  if (!recordsUse(c, use)) return true;
  return moveActivationTokenUse(c, token, c.activationTokenUse, useKey(use), now().toISOString());
}

/** A place that refused the binding leaves the token as it found it. */
async function giveBack(c: CommunityRecord, token: string, use: TokenUse): Promise<void> {
  if (!recordsUse(c, use)) return;
  await moveActivationTokenUse(c, token, useKey(use), c.activationTokenUse ?? LIVE_TOKEN, now().toISOString());
}

/**
 * Binds `use.place` with the community's token: `spent` when the token already bound somewhere else,
 * `taken` when the place belongs to another community (the token stays as it was).
 */
export async function bindWithToken(c: CommunityRecord, token: string, use: TokenUse): Promise<TokenBinding> {
  if (!(await spend(c, token, use))) return 'spent';
  const bind = use.role === 'moderated' ? bindModeratedPlace : bindAlertPlace;
  if ((await bind(c, use.place)) === 'bound') return 'bound';
  await giveBack(c, token, use);
  return 'taken';
}

/** A custom bridge's `activation` event binds no place of ours, but spends the token all the same. */
export const spendOnBridge = (c: CommunityRecord, token: string): Promise<boolean> =>
  spend(c, token, { role: 'moderated', place: 'events' });

const expired = () =>
  new UnprocessableError('invalid_state', 'This community has expired and binds no place; provision a new one.');

/**
 * POST /integrations/moderation/communities/{id}/activation-token: a fresh, live token replaces the
 * community's (the old one finds nothing from now on). The community stays where it is bound until
 * the new token binds it elsewhere.
 */
export async function issueActivationToken(userId: string, communityId: string): Promise<CommunityRecord> {
  const community = await requireCommunity(userId, communityId, true);
  if (community.billingState === 'expired') throw expired();
  const token = newActivationToken();
  const replaced = await writeIfCondition(() =>
    writeTogether({
      community: reissueActivationTokenItem(community, community.activationToken, token, now().toISOString()),
      pointer: putActivationPointer(token, { userId, communityId }),
      ...(community.activationToken ? { oldPointer: deleteActivationPointer(community.activationToken) } : {}),
    }),
  );
  if (!replaced) {
    // Deleted, expired or given another token meanwhile: say which, as a read now would.
    if ((await requireCommunity(userId, communityId, true)).billingState === 'expired') throw expired();
    throw new ConflictError(
      'concurrent_update',
      'The community changed while its token was being replaced; try again.',
    );
  }
  const fresh = await getCommunity(userId, communityId, true);
  if (!fresh) throw new NotFoundError('Community');
  return fresh;
}
