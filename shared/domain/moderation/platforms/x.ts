/**
 * X: each community is an X account that authorized the operator's app (OAuth 2.0 with PKCE,
 * x/oauth.ts); calls run as that account with its own tokens (x/tokens.ts, refreshed under a lease).
 * Replies are polled (x/poll.ts, one community at a time); decisions hide replies and mute authors
 * (x/actions.ts); undo shows the reply again and unmutes. No welcome (X tells no one about
 * followers), no alerts on X.
 */
import { X_DECISION_CALLS, X_UNDO_CALLS, X_UNSUPPORTED, type XTarget } from './x/actions';
import { pollCommunityNow } from '../polling';
import { pollXCommunity } from './x/poll';
import { sendXCall } from './x/send';
import { forgetXAccountOfExpired } from './x/tokens';
import { blankToUndefined, definePlatform } from './platform';

export interface XCredentials {
  /** The operator's OAuth 2.0 confidential client; undefined: X actions are recorded as not_configured. */
  clientId: string | undefined;
  clientSecret: string | undefined;
  apiBase: string;
  /** X's authorization page (configuration, so a stand-in can play it). */
  authorizeUrl: string;
}

export const X_DEFAULT_BASE = 'https://api.x.com';
export const X_DEFAULT_AUTHORIZE_URL = 'https://x.com/i/oauth2/authorize';

export const x = definePlatform<XTarget, XCredentials>({
  type: 'x',
  credentials: {
    names: ['X_CLIENT_ID', 'X_CLIENT_SECRET'],
    apiBase: { env: 'X_API_BASE', default: X_DEFAULT_BASE },
    read: (values, apiBase, settings) => ({
      clientId: blankToUndefined(values.X_CLIENT_ID),
      clientSecret: blankToUndefined(values.X_CLIENT_SECRET),
      apiBase,
      authorizeUrl: settings.X_AUTHORIZE_URL ?? X_DEFAULT_AUTHORIZE_URL,
    }),
    configured: (c) => c.clientId !== undefined && c.clientSecret !== undefined,
  },
  // Every X call acts as one community's account: without the community there is no one to act as.
  send: (call, { credentials, communityId }) =>
    communityId
      ? sendXCall(call, communityId, credentials)
      : Promise.resolve({
          ok: false,
          status: 400,
          error: 'An X call is sent as a community account: no community given',
        }),
  ingest: { kind: 'poll', poll: (community) => pollXCommunity(community) },
  // POST /sync polls at once, as the schedule would.
  sync: (community) => pollCommunityNow(community),
  // X keeps no copy of the rules: every reply is judged by the engine as it is read.
  onRulesChanged: null,
  // An expired community never renews: its account's grant, which can hide replies and mute, ends with it.
  onMonitoringChanged: async (community, _record, left) => (left ? undefined : forgetXAccountOfExpired(community)),
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
  // The record's link is authorize_url, minted per community (x/oauth.ts), not an install link.
  unsupported: X_UNSUPPORTED,
});
