/**
 * The Reddit request budget of one OAuth client id: one item for the whole deployment, so pollers and
 * delivery workers in different Lambdas spend the same requests. A call takes one with a conditional
 * decrement; an answer from Reddit sets what is left from its X-Ratelimit-Remaining/Reset headers.
 * Until Reddit has said anything (or after its window ended) the budget assumes DEFAULT_WINDOW.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, isConditionFailure, table } from '#shared/store/client';
import { defineEntity } from '#shared/store/entity';
import { redditRateBudgetKey } from '#shared/store/keys';

/** Reddit's documented allowance per client id: about 100 requests a minute. */
export const DEFAULT_WINDOW = { requests: 100, seconds: 60 };
/** Readings of one window differ by a second or two in their reset time; further apart is another window. */
const SAME_WINDOW_MS = 5_000;
const MAX_TRIES = 5;
const NAMES = { '#rem': 'remaining', '#reset': 'resetAt' };

export interface BudgetState {
  remaining: number;
  /** Epoch milliseconds at which the window resets. */
  resetAt: number;
  /**
   * Requests the whole window holds, as Reddit counts them (used plus remaining): a share kept for others
   * is a share of this, so it keeps its meaning whether Reddit gives 100 a minute or 600 in ten minutes.
   */
  size?: number;
}

/** The stored budget: `guessed` while it is the default allowance, not yet a reading of Reddit's. */
interface BudgetRecord extends BudgetState {
  guessed?: boolean;
  /** Requests each consumer (a community, the bot's inbox) took from the window that reset at `spentFor`. */
  spent?: Record<string, number>;
  spentFor?: number;
}

/**
 * The most one consumer may take of a window once half of it is spent: an equal part among the consumers
 * that took from it, and never more than half, so that one community (or a flood of messages to the bot)
 * cannot spend what the others need to act. Below half, everyone takes freely (a share of a quiet window
 * would only delay actions). Polls take as no consumer: they read for everyone.
 */
export const fairShare = (size: number, consumers: number) => Math.max(1, Math.ceil(size / Math.max(2, consumers)));

const budgets = defineEntity<BudgetRecord>()({
  name: 'redditRateBudget',
  key: (b: { clientId: string }) => redditRateBudgetKey(b.clientId),
  keyOnly: ['clientId'],
});

export type Take = { ok: true } | { ok: false; waitSeconds: number };

/** The size of the window open at `nowMs`; the default allowance's while none is known. */
const windowSize = (state: BudgetState | undefined, nowMs: number): number =>
  state && state.resetAt > nowMs && state.size ? state.size : DEFAULT_WINDOW.requests;

/**
 * Takes one request, leaving at least `reserve` for others, and at least `share` (0 to 1) of the window's
 * size; or how long until the window resets.
 */
export async function takeRedditRequest(
  clientId: string,
  nowMs: number,
  reserve = 0,
  share = 0,
  consumer?: string,
): Promise<Take> {
  if (consumer !== undefined) return takeAsConsumer(clientId, consumer, nowMs, reserve, share);
  const key = redditRateBudgetKey(clientId);
  // The size is read first (one more read, only for a caller that keeps a share): a condition cannot
  // multiply, and the size changes only when a new window opens.
  if (share > 0) reserve = Math.max(reserve, Math.ceil(windowSize(await readRedditBudget(clientId), nowMs) * share));
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: table(),
          Key: key,
          ...budgets.update({
            increment: { remaining: -1 },
            condition: {
              expression: 'attribute_exists(pk) AND #reset > :now AND #rem >= :need',
              names: NAMES,
              values: { ':now': nowMs, ':need': 1 + reserve },
            },
          }),
        }),
      );
      return { ok: true };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    const state = await readRedditBudget(clientId);
    if (state && state.resetAt > nowMs)
      return { ok: false, waitSeconds: Math.max(1, Math.ceil((state.resetAt - nowMs) / 1000)) };
    // No window, or it has ended: open a new one with the default allowance (this call takes one of it).
    try {
      await openWindow(clientId, nowMs);
      return { ok: true };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      // Another worker opened the window first: take from it.
    }
  }
  return { ok: false, waitSeconds: 1 };
}

/**
 * Opens a new window with the default allowance, this call taking one of it (for `consumer`, when the
 * take counts shares), unless another worker opened one first (a failed condition, for the caller).
 */
function openWindow(clientId: string, nowMs: number, consumer?: string) {
  const resetAt = nowMs + DEFAULT_WINDOW.seconds * 1000;
  return ddb().send(
    new PutCommand({
      TableName: table(),
      Item: budgets.item({
        clientId,
        remaining: DEFAULT_WINDOW.requests - 1,
        resetAt,
        size: DEFAULT_WINDOW.requests,
        guessed: true,
        ...(consumer === undefined ? {} : { spent: { [consumer]: 1 }, spentFor: resetAt }),
      }),
      ConditionExpression: 'attribute_not_exists(pk) OR #reset <= :now',
      ExpressionAttributeNames: { '#reset': NAMES['#reset'] },
      ExpressionAttributeValues: { ':now': nowMs },
    }),
  );
}

/** The window's spending by consumer; empty when it counts an earlier window. */
const spendingOf = (record: BudgetRecord): Record<string, number> =>
  record.spent && record.spentFor !== undefined && Math.abs(record.spentFor - record.resetAt) <= SAME_WINDOW_MS
    ? record.spent
    : {};

/**
 * takeRedditRequest for one consumer: also within its fair share of the window (fairShare), counted on
 * the budget item so that every worker sees the same spending. Each write is conditioned on what was
 * read (the consumer's count, the window it counts), so concurrent takes retry rather than overspend.
 */
async function takeAsConsumer(
  clientId: string,
  consumer: string,
  nowMs: number,
  reserve: number,
  share: number,
): Promise<Take> {
  const key = redditRateBudgetKey(clientId);
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }));
    const record = budgets.maybe(Item);
    try {
      if (!record || record.resetAt <= nowMs) {
        await openWindow(clientId, nowMs, consumer);
        return { ok: true };
      }
      const size = windowSize(record, nowMs);
      const need = 1 + Math.max(reserve, Math.ceil(size * share));
      const spent = spendingOf(record);
      const mine = Object.hasOwn(spent, consumer) ? spent[consumer] : 0;
      const consumers = Object.keys(spent).length + (Object.hasOwn(spent, consumer) ? 0 : 1);
      const contended = record.remaining <= size / 2;
      if ((contended && mine >= fairShare(size, consumers)) || record.remaining < need)
        return { ok: false, waitSeconds: Math.max(1, Math.ceil((record.resetAt - nowMs) / 1000)) };
      const fresh = spent !== record.spent;
      await ddb().send(
        new UpdateCommand({
          TableName: table(),
          Key: key,
          ...budgets.update({
            increment: { remaining: -1 },
            ...(fresh
              ? { set: { spent: { [consumer]: 1 }, spentFor: record.resetAt } }
              : { set: { [`spent.${consumer}`]: mine + 1 } }),
            condition: {
              expression: fresh
                ? '#rem >= :need AND #reset = :reset'
                : `#rem >= :need AND #for = :for AND ${mine ? '#spent.#me = :mine' : 'attribute_not_exists(#spent.#me)'}`,
              names: {
                '#rem': 'remaining',
                ...(fresh ? { '#reset': 'resetAt' } : { '#for': 'spentFor', '#spent': 'spent', '#me': consumer }),
              },
              values: {
                ':need': need,
                ...(fresh
                  ? { ':reset': record.resetAt }
                  : { ':for': record.spentFor, ...(mine ? { ':mine': mine } : {}) }),
              },
            },
          }),
        }),
      );
      return { ok: true };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      // Another worker took or opened the window first: read it again.
    }
  }
  return { ok: false, waitSeconds: 1 };
}

/**
 * Reddit's reading after a call. It replaces ours when ours was only the default guess, when it is of
 * a later window (or ours has ended), or of the same window and lower: a reading overtaken by later
 * calls never raises the count. `used` (X-Ratelimit-Used) gives the window's size; without it the size
 * is taken as at least the default allowance.
 */
export async function observeRedditRate(
  clientId: string,
  nowMs: number,
  remaining: number,
  resetSeconds: number,
  used?: number,
): Promise<void> {
  const resetAt = nowMs + Math.round(resetSeconds * 1000);
  const size = used === undefined ? Math.max(DEFAULT_WINDOW.requests, remaining) : used + remaining;
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: redditRateBudgetKey(clientId),
        ...budgets.update({
          // An upsert: the first reading may come before any take opened a window.
          set: { entity: budgets.name, remaining, resetAt, size },
          remove: ['guessed'],
          condition: {
            expression:
              'attribute_not_exists(pk) OR #guessed = :true OR #reset <= :now OR #reset < :lo OR (#reset <= :hi AND #rem > :r)',
            names: { ...NAMES, '#guessed': 'guessed' },
            values: {
              ':r': remaining,
              ':now': nowMs,
              ':lo': resetAt - SAME_WINDOW_MS,
              ':hi': resetAt + SAME_WINDOW_MS,
              ':true': true,
            },
          },
        }),
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

export async function readRedditBudget(clientId: string): Promise<BudgetState | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: redditRateBudgetKey(clientId), ConsistentRead: true }),
  );
  const budget = budgets.maybe(Item);
  return (
    budget && { remaining: budget.remaining, resetAt: budget.resetAt, ...(budget.size ? { size: budget.size } : {}) }
  );
}
