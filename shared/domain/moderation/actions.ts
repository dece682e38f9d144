/**
 * Graduated actions: a minor breach only removes the message; an offence climbs the ladder with the
 * member's offences still inside the window, and a severe one starts a rung higher.
 */
import type { RuleWeight } from './rules';

export type ModerationAction = 'allow' | 'delete' | 'warn' | 'mute' | 'ban';
export type PenaltyAction = Exclude<ModerationAction, 'allow'>;

/** The rung each weight starts on; null: no offence is recorded. */
export const LADDER_START: Record<RuleWeight, number | null> = { minor: null, offence: 0, severe: 1 };

export const countsAsOffence = (weight: RuleWeight): boolean => LADDER_START[weight] !== null;

/**
 * `priorOffences`: the member's offences inside the window, not counting this one. `warnLimit`
 * (per-community rules) stretches the warning rung: that many warnings before a mute; a severe
 * breach always starts at the mute.
 */
export function actionFor(weight: RuleWeight, priorOffences: number, warnLimit = 1): PenaltyAction {
  const start = LADDER_START[weight];
  if (start === null) return 'delete';
  const ladder: PenaltyAction[] = [...Array<PenaltyAction>(warnLimit).fill('warn'), 'mute', 'ban'];
  const first = start === 0 ? 0 : warnLimit + start - 1;
  return ladder[Math.min(first + priorOffences, ladder.length - 1)];
}

/**
 * An offence of an author already under a mute the platform enforces by removing their items (Reddit's,
 * ours): a warning would name a step the author is past, and its removal could not be undone as a
 * warning. It is a mute again, from this item; a harsher action stands.
 */
export const underMute = (action: PenaltyAction): PenaltyAction => (action === 'warn' ? 'mute' : action);
