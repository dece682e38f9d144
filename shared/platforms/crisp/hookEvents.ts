/**
 * What one Crisp plugin hook means for moderation, as pure data. A visitor's message
 * (`message:send`, from "user") is a chat event whose id is `website_id:session_id:fingerprint`,
 * preceded by a join event of its conversation (one id per session, so only the first message of a
 * session welcomes: the engine acts once per event id). An operator's `/activate <token>`
 * (`message:received`, from "operator") binds the website. Everything else is not ours to act on.
 */
import type { ChatEvent } from '#shared/domain/moderation/engine';

/**
 * A plugin hook as the endpoint's schema lets it through: the envelope is checked, `data` is whatever
 * the event carries (Crisp sends many events with other shapes), read field by field below.
 */
export interface CrispHook {
  website_id: string;
  event: string;
  /** Epoch milliseconds. */
  timestamp?: number;
  data?: Record<string, unknown>;
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
/** Crisp's fingerprints and timestamps are integers within a double's exact range. */
const integer = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined);
/** Epoch milliseconds a Date can hold (up to year 9999). */
const epochMs = (v: unknown) => {
  const n = integer(v);
  return n !== undefined && n <= 253_402_300_799_999 ? n : undefined;
};

/** Where a decision applies on Crisp: the conversation and, for a message, the message. */
export interface CrispTarget {
  websiteId: string;
  sessionId: string;
  fingerprint?: number;
}

/** One message of a conversation, and when it was written (a mute's time runs from there at the latest). */
export interface CrispMessageTarget extends CrispTarget {
  fingerprint: number;
  at: string;
}

export type CrispHookMeaning =
  | { kind: 'activate'; target: CrispMessageTarget; token: string }
  | { kind: 'visitor_message'; target: CrispMessageTarget; events: ChatEvent[] }
  | { kind: 'ignored'; reason: string };

const ACTIVATE = /^\/activate\s+(\S+)\s*$/;

export const crispEventId = (t: CrispTarget & { fingerprint: number }) =>
  `${t.websiteId}:${t.sessionId}:${t.fingerprint}`;
/** No fingerprint is a word, so the join of a session never shares an id with one of its messages. */
export const crispJoinEventId = (t: CrispTarget) => `${t.websiteId}:${t.sessionId}:join`;

const ignored = (reason: string): CrispHookMeaning => ({ kind: 'ignored', reason });

export function readCrispHook(hook: CrispHook, receivedAtMs: number): CrispHookMeaning {
  const data = hook.data ?? {};
  if (hook.event !== 'message:send' && hook.event !== 'message:received') return ignored(`event ${hook.event}`);
  const sessionId = text(data.session_id);
  const fingerprint = integer(data.fingerprint);
  if (!sessionId || fingerprint === undefined) return ignored('no conversation or message');
  const sentAt = new Date(epochMs(data.timestamp) ?? epochMs(hook.timestamp) ?? receivedAtMs).toISOString();
  const target = { websiteId: hook.website_id, sessionId, fingerprint, at: sentAt };
  const content = data.type === 'text' ? text(data.content) : undefined;
  if (hook.event === 'message:received') {
    // Only an operator of the website can send as one; visitors, notes and our own messages bind nothing.
    if (data.from !== 'operator' || content === undefined) return ignored('not an operator text');
    const command = ACTIVATE.exec(content.trim());
    return command ? { kind: 'activate', target, token: command[1] } : ignored('operator message');
  }
  if (data.from !== 'user') return ignored('not from the visitor');
  if (content === undefined)
    return ignored(`visitor ${typeof data.type === 'string' ? data.type : 'message'} without text`);
  const nickname = text((data.user as Record<string, unknown> | undefined)?.nickname);
  // The conversation is all Crisp tells of a visitor: a block, an undo and the audit log's user are per session.
  const user = { id: sessionId, ...(nickname ? { username: nickname } : {}) };
  return {
    kind: 'visitor_message',
    target,
    events: [
      { event_id: crispJoinEventId(target), type: 'member_join', user, sent_at: sentAt },
      { event_id: crispEventId(target), type: 'message', user, text: content, sent_at: sentAt },
    ],
  };
}
