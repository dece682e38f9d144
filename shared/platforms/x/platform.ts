/**
 * X: each community is an X account that authorized the operator's app (OAuth 2.0 with PKCE,
 * x/oauth.ts); calls run as that account with its own tokens (x/tokens.ts, refreshed under a lease).
 * Replies are polled (x/poll.ts, one community at a time); decisions hide replies and mute authors
 * (x/actions.ts); undo shows the reply again and unmutes. No welcome (X tells no one about
 * followers), no alerts on X.
 */
import { X_POLL_SCHEDULE } from './schedule';
import { X_DECISION_CALLS, X_UNDO_CALLS, X_UNSUPPORTED, type XTarget } from './actions';
import { pollXCommunity } from './poll';
import { sendXCall } from './send';
import { forgetXAccount, forgetXAccountOfExpired } from './tokens';
import { xAuthorizeUrl } from './oauth';
import { definePlatform } from '#shared/platforms/contract';
import { X_CREDENTIALS, type XCredentials } from './credentials';

export const x = definePlatform<XTarget, XCredentials>({
  type: 'x',
  credentials: X_CREDENTIALS,
  // Every X call acts as one community's account: without the community there is no one to act as.
  send: (call, { credentials, communityId }) =>
    communityId
      ? sendXCall(call, communityId, credentials)
      : Promise.resolve({
          ok: false,
          status: 400,
          error: 'An X call is sent as a community account: no community given',
        }),
  ingest: {
    kind: 'poll',
    schedule: X_POLL_SCHEDULE,
    poll: (community, _cause, core) => pollXCommunity(community, core),
  },
  // POST /sync polls at once, as the schedule would.
  sync: 'poll',
  // X keeps no copy of the rules: every reply is judged by the engine as it is read.
  onRulesChanged: null,
  // An expired community never renews: its account's grant, which can hide replies and mute, ends with it.
  onMonitoringChanged: async (community, _record, _core, left) =>
    left ? undefined : forgetXAccountOfExpired(community),
  decisions: {
    delete: (target) => X_DECISION_CALLS.delete(target),
    warn: (target) => X_DECISION_CALLS.warn(target),
    mute: (target) => X_DECISION_CALLS.mute(target),
    ban: (target) => X_DECISION_CALLS.ban(target),
  },
  welcome: null,
  alert: null,
  // The audit entry's event id is the reply's post id, its user id the author's; the account must still be bound.
  undo: {
    // A hidden reply can be shown again; a warning was never sent.
    delete: ({ record, eventId, userId }) =>
      record.boundId ? X_UNDO_CALLS.delete({ postId: eventId, authorId: userId }) : undefined,
    warn: null,
    mute: ({ record, eventId, userId }) =>
      record.boundId ? X_UNDO_CALLS.mute({ postId: eventId, authorId: userId }) : undefined,
    ban: ({ record, eventId, userId }) =>
      record.boundId ? X_UNDO_CALLS.ban({ postId: eventId, authorId: userId }) : undefined,
  },
  // Its calls act on the bound account's replies and name no other place.
  actedIn: null,
  recordFields: { bound: 'boundId', alert: null },
  // The community's link is authorize_url, minted per community (oauth.ts), not an install link.
  connectLink: xAuthorizeUrl,
  forget: (communityId, stillGone) => forgetXAccount(communityId, stillGone),
  unsupported: X_UNSUPPORTED,
  work: null,
});
