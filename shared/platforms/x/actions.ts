/**
 * What each moderation outcome becomes on X, as data. X lets an account hide replies in the
 * conversations it started and mute users; it has no delete of other people's posts and blocking
 * needs its Enterprise tier. So a delete hides the reply, a mute hides it and mutes the author, and a
 * ban does both and has every later reply of that author hidden by the poller. A warning is recorded
 * only: a public reply would shame the author. `{me}` in a route is the community's own account,
 * named at send time by the session the call runs in.
 */
import type { XMethod } from './api';
import { UnprocessableError } from '#shared/domain/errors';
import type { PenaltyAction } from '#shared/domain/moderation/actions';

export interface XCall {
  platform: 'x';
  method: XMethod;
  route: string;
  body?: Record<string, unknown>;
}

export const X_ME = '{me}';

/**
 * Ids are X snowflakes; anything else must never reach a route. The poll only reads snowflakes; an
 * entry from the events endpoint may name anything, and undoing it is refused, not a failure.
 */
const SNOWFLAKE = /^\d{1,20}$/;
function idOf(value: string, what: string): string {
  if (!SNOWFLAKE.test(value))
    throw new UnprocessableError('invalid_state', `Not an X ${what} id: there is nothing on X to act on.`);
  return value;
}

const hide = (postId: string, hidden: boolean): XCall => ({
  platform: 'x',
  method: 'PUT',
  route: `/2/tweets/${idOf(postId, 'post')}/hidden`,
  body: { hidden },
});
const mute = (userId: string, as = X_ME): XCall => ({
  platform: 'x',
  method: 'POST',
  route: `/2/users/${as === X_ME ? X_ME : idOf(as, 'user')}/muting`,
  body: { target_user_id: idOf(userId, 'user') },
});
const unmute = (userId: string): XCall => ({
  platform: 'x',
  method: 'DELETE',
  route: `/2/users/${X_ME}/muting/${idOf(userId, 'user')}`,
});

/** The reply a decision is about and who wrote it. */
export interface XTarget {
  postId: string;
  authorId: string;
  /**
   * The account the reply was written to, when known (a poll): a decision's mute names it rather than
   * `{me}`, so an account connected to the community while the mute waited (a rate limit) never makes
   * it: X refuses a mute on another account's behalf.
   */
  accountId?: string;
}

export const X_DECISION_CALLS: Record<PenaltyAction, (t: XTarget) => XCall[]> = {
  delete: (t) => [hide(t.postId, true)],
  warn: () => [],
  mute: (t) => [hide(t.postId, true), mute(t.authorId, t.accountId)],
  ban: (t) => [hide(t.postId, true), mute(t.authorId, t.accountId)],
};

/** A later reply of a banned author. */
export const xBannedReplyCalls = (t: XTarget): XCall[] => [hide(t.postId, true)];

/** Undo shows the reply again, and for a mute or a ban unmutes its author (a ban also stops hiding their later replies). */
export const X_UNDO_CALLS = {
  delete: (t) => [hide(t.postId, false)],
  mute: (t) => [hide(t.postId, false), unmute(t.authorId)],
  ban: (t) => [hide(t.postId, false), unmute(t.authorId)],
} satisfies Partial<Record<PenaltyAction, (t: XTarget) => XCall[]>>;

/** Reported by the status endpoint as what X does not do. */
export const X_UNSUPPORTED = [
  'Replies are hidden, not deleted: X lets an account hide replies only in conversations it started (50 hides per 15 minutes), and hidden replies stay reachable behind "hidden replies".',
  "Bans cannot block: blocking needs X's Enterprise tier, so a ban hides the reply, mutes the author and hides every later reply of theirs that the poller reads.",
  'Warnings are recorded only (a public reply would shame the user); no welcome messages (X tells no one about new followers) and no alerts on X (the audit log and outbound webhooks carry them).',
  'Replies are read by polling recent search each minute (X bills every read to the operator), so an action follows a reply by up to a minute or so; mentions that are not replies are not read.',
];
