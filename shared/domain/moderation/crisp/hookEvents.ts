/**
 * What one Crisp plugin hook means for moderation, as pure data. A visitor's message
 * (`message:send`, from "user") is a chat event whose id is `website_id:session_id:fingerprint`,
 * preceded by a join event of its conversation (one id per session, so only the first message of a
 * session welcomes: the engine acts once per event id). An operator's `/activate <token>`
 * (`message:received`, from "operator") binds the website. Everything else is not ours to act on.
 */
import type { ChatEvent } from '../engine';

/** The parts of a plugin hook moderation reads (the endpoint's schema checks them). */
export interface CrispHook {
  website_id: string;
  event: string;
  /** Epoch milliseconds. */
  timestamp: number;
  data: CrispMessageData;
}

export interface CrispMessageData {
  session_id?: string;
  type?: string;
  from?: string;
  origin?: string;
  content?: unknown;
  fingerprint?: number;
  user?: { nickname?: string; user_id?: string };
  /** Epoch milliseconds. */
  timestamp?: number;
}

/** Where a decision applies on Crisp: the conversation and, for a message, the message. */
export interface CrispTarget {
  websiteId: string;
  sessionId: string;
  fingerprint?: number;
}

export type CrispHookMeaning =
  | { kind: 'activate'; target: CrispTarget & { fingerprint: number }; token: string }
  | { kind: 'visitor_message'; target: CrispTarget & { fingerprint: number }; events: ChatEvent[] }
  | { kind: 'ignored'; reason: string };

const ACTIVATE = /^\/activate\s+(\S+)\s*$/;

export const crispEventId = (t: CrispTarget & { fingerprint: number }) => `${t.websiteId}:${t.sessionId}:${t.fingerprint}`;
/** No fingerprint is a word, so the join of a session never shares an id with one of its messages. */
export const crispJoinEventId = (t: CrispTarget) => `${t.websiteId}:${t.sessionId}:join`;

const ignored = (reason: string): CrispHookMeaning => ({ kind: 'ignored', reason });

export function readCrispHook(hook: CrispHook): CrispHookMeaning {
  const { data } = hook;
  if (hook.event !== 'message:send' && hook.event !== 'message:received') return ignored(`event ${hook.event}`);
  if (!data.session_id || data.fingerprint === undefined) return ignored('no conversation or message');
  const target = { websiteId: hook.website_id, sessionId: data.session_id, fingerprint: data.fingerprint };
  const text = data.type === 'text' && typeof data.content === 'string' ? data.content : undefined;
  if (hook.event === 'message:received') {
    // Only an operator of the website can send as one; visitors, notes and our own messages bind nothing.
    if (data.from !== 'operator' || text === undefined) return ignored('not an operator text');
    const command = ACTIVATE.exec(text.trim());
    return command ? { kind: 'activate', target, token: command[1] } : ignored('operator message');
  }
  if (data.from !== 'user') return ignored('not from the visitor');
  if (text === undefined) return ignored(`visitor ${data.type ?? 'message'} without text`);
  const sentAt = new Date(data.timestamp ?? hook.timestamp).toISOString();
  // The conversation is all Crisp tells of a visitor: a block, an undo and the audit log's user are per session.
  const user = { id: data.session_id, ...(data.user?.nickname ? { username: data.user.nickname } : {}) };
  return {
    kind: 'visitor_message',
    target,
    events: [
      { event_id: crispJoinEventId(target), type: 'member_join', user, sent_at: sentAt },
      { event_id: crispEventId(target), type: 'message', user, text, sent_at: sentAt },
    ],
  };
}
