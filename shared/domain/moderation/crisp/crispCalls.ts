/**
 * What each moderation outcome becomes on Crisp, as data: the REST calls of the plugin (routes under
 * the API base). A block applies to one conversation; a removed message cannot be restored, so only
 * blocks are undone. Nothing here performs a call.
 */
import type { CrispMethod } from '#shared/adapters/platforms/crispApi';
import type { PenaltyAction } from '../actions';
import type { CrispTarget } from './hookEvents';

/**
 * What a successful call starts or ends beyond the call itself: a mute's block is lifted by the
 * schedule once the mute is over (counted from when the block was applied); a ban's block is for good,
 * so it cancels any pending lift; an unblock cancels it too.
 */
export interface CrispCallEffect {
  on: 'mute_block' | 'ban_block' | 'unblock';
  websiteId: string;
  sessionId: string;
}

export interface CrispCall {
  method: CrispMethod;
  route: string;
  body?: Record<string, unknown>;
  effect?: CrispCallEffect;
}

const conversation = (t: CrispTarget) => `/website/${encodeURIComponent(t.websiteId)}/conversation/${encodeURIComponent(t.sessionId)}`;

export const crispDeleteMessage = (t: CrispTarget & { fingerprint: number }): CrispCall => ({ method: 'DELETE', route: `${conversation(t)}/message/${t.fingerprint}` });
/** A message the visitor sees, from the website's side. */
export const crispText = (t: CrispTarget, content: string): CrispCall => ({ method: 'POST', route: `${conversation(t)}/message`, body: { type: 'text', from: 'operator', origin: 'chat', content } });
/** A private note: operators see it in the conversation, the visitor never does. */
export const crispNote = (t: CrispTarget, content: string): CrispCall => ({ method: 'POST', route: `${conversation(t)}/message`, body: { type: 'note', from: 'operator', origin: 'chat', content } });
const block = (t: CrispTarget, blocked: boolean, on: CrispCallEffect['on']): CrispCall => ({
  method: 'PATCH',
  route: `${conversation(t)}/block`,
  body: { blocked },
  effect: { on, websiteId: t.websiteId, sessionId: t.sessionId },
});

export const CRISP_DECISION_CALLS: Record<PenaltyAction, (t: CrispTarget & { fingerprint: number }, text: { warning: string }) => CrispCall[]> = {
  delete: (t) => [crispDeleteMessage(t)],
  warn: (t, text) => [crispText(t, text.warning)],
  mute: (t) => [crispDeleteMessage(t), block(t, true, 'mute_block')],
  ban: (t) => [crispDeleteMessage(t), block(t, true, 'ban_block')],
};

/** Undo lifts the conversation's block; a deleted message or a warning cannot be taken back. */
export const CRISP_UNDO_CALLS: Partial<Record<PenaltyAction, (t: CrispTarget) => CrispCall[]>> = {
  mute: (t) => [block(t, false, 'unblock')],
  ban: (t) => [block(t, false, 'unblock')],
};

/** The schedule's lift of a mute that is over. */
export const crispMuteEndCalls = (t: CrispTarget): CrispCall[] => [block(t, false, 'unblock')];
