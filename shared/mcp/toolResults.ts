/**
 * A route's answer as a tool result: success is structuredContent plus the same JSON as text; an API
 * error is an isError result naming the contract's error code and what the agent should do next.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { MAX_PAGE } from './tools';

/** What an agent should do after each error code of the contract. */
const NEXT_STEP = new Map<string, string>([
  ['validation_error', 'Fix the arguments named in details (see the tool’s inputSchema) and call again.'],
  [
    'unauthorized',
    'The API key is missing, revoked or rotated: a person must configure a current key for this MCP server.',
  ],
  [
    'insufficient_credits',
    'Not enough credits (details: required, available). Ask a person to add credits, then quote again and use the new quote_token.',
  ],
  [
    'subscription_required',
    'This tool needs a pro subscription: ask a person to upgrade the account (no tool starts a checkout).',
  ],
  ['not_found', 'Check the id; the list_* tools show the ones you own.'],
  [
    // A retry whose arguments differ in form only ("DeFi" for "defi") has another key, so it lands here
    // although its first call went through: quoting again would buy the same thing twice.
    'quote_token_used',
    'This quote_token was already used. If by an earlier call of yours (an answer you lost), that call went through: call again with exactly its arguments for its result, or find what it made with list_results or list_jobs (get_growth_run for a run), and do not quote again for the same purchase. Otherwise quote again for a new token.',
  ],
  [
    // A spending tool's key is its token and arguments, so only the same call still running is refused:
    // quoting again here would pay twice for what that call is buying.
    'idempotency_conflict',
    'The same call (this quote_token, these arguments) is still running: call again unchanged in a few seconds for its result. Do not quote again: that would pay twice.',
  ],
  [
    // expand_result's answer when other expansions of the result kept moving it: nothing was charged, the
    // token is unused, and the same call replays this answer (its key is the token and the arguments).
    'concurrent_update',
    'Other expansions of this result changed it at the same time; nothing was charged. Quote the expansion again and use the new quote_token (the same call would answer this again).',
  ],
  ['quote_expired', 'The quote expired (quotes live 15 minutes): quote again and use the new quote_token.'],
  [
    'quote_mismatch',
    'Send exactly the arguments you quoted, or quote these arguments again; fill any missing slot first.',
  ],
  [
    'invalid_state',
    'The object is not in a state that allows this: read it again (get_job, get_growth_run) for its current state.',
  ],
  ['payload_too_large', 'Send fewer inputs in one call.'],
  ['rate_limited', 'Too many requests: wait for the Retry-After seconds, then call again.'],
  ['dataset_loading', 'The curated dataset is still loading: wait for the Retry-After seconds, then call again.'],
  [
    'service_unavailable',
    'The service is busy and nothing was charged: wait a few seconds and call again with the same arguments.',
  ],
  ['internal_error', 'An internal error: try again later, quoting the request_id if it persists.'],
]);

export const nextStepFor = (code: string): string =>
  NEXT_STEP.get(code) ?? 'Read the message, adjust the call and try again.';

export interface ErrorAnswer {
  error: { code: string; message: string; details?: unknown };
  request_id?: string;
}

/** An isError result: a sentence naming the code and the next step, then the error body as JSON. */
export function errorResult(answer: ErrorAnswer, retryAfter?: string): CallToolResult {
  const next = nextStepFor(answer.error.code);
  const body = { ...answer, next_step: next, ...(retryAfter ? { retry_after_seconds: Number(retryAfter) } : {}) };
  return {
    isError: true,
    content: [
      { type: 'text', text: `Error ${answer.error.code}: ${answer.error.message} Next step: ${next}` },
      { type: 'text', text: JSON.stringify(body) },
    ],
  };
}

/** An isError validation_error for one argument, as the route would name it. */
export const invalidArgument = (path: string, message: string): CallToolResult =>
  errorResult({ error: { code: 'validation_error', message: `${path}: ${message}`, details: [{ path, message }] } });

/** A route's error response as its contract body (a body that is not one still names a code). */
export function errorAnswerOf(response: APIGatewayProxyResult): ErrorAnswer {
  try {
    const parsed = JSON.parse(response.body) as ErrorAnswer;
    if (parsed && typeof parsed.error?.code === 'string') return parsed;
  } catch {
    /* fall through */
  }
  return {
    error: {
      code: response.statusCode >= 500 ? 'internal_error' : 'validation_error',
      message: `The request was answered with status ${response.statusCode}.`,
    },
  };
}

export interface Page {
  offset: number;
  limit: number;
  returned: number;
  total: number;
  next_offset: number | null;
}

/**
 * The records array at the first of `paths` that holds one, cut to whole records [offset, offset + limit);
 * the rest of the answer is kept as it is. None: the answer is unchanged and no page is reported.
 */
export function pageRecords(
  answer: unknown,
  paths: readonly (readonly string[])[],
  offset: number,
  limit: number,
): { answer: unknown; page?: Page } {
  for (const path of paths) {
    const paged = pageAt(answer, path, offset, limit);
    if (paged.page) return paged;
  }
  return { answer };
}

function pageAt(
  answer: unknown,
  path: readonly string[],
  offset: number,
  limit: number,
): { answer: unknown; page?: Page } {
  let holder: unknown = answer;
  for (const key of path.slice(0, -1))
    holder =
      holder && typeof holder === 'object' && Object.hasOwn(holder, key)
        ? (holder as Record<string, unknown>)[key]
        : undefined;
  const last = path[path.length - 1];
  const records =
    holder && typeof holder === 'object' && Object.hasOwn(holder, last)
      ? (holder as Record<string, unknown>)[last]
      : undefined;
  if (!Array.isArray(records)) return { answer };
  const slice = records.slice(offset, offset + Math.min(limit, MAX_PAGE));
  (holder as Record<string, unknown>)[last] = slice;
  const end = offset + slice.length;
  return {
    answer,
    page: {
      offset,
      limit,
      returned: slice.length,
      total: records.length,
      next_offset: end < records.length ? end : null,
    },
  };
}

export function successResult(answer: unknown, meta: Record<string, unknown>): CallToolResult {
  const structured =
    answer && typeof answer === 'object' && !Array.isArray(answer)
      ? (answer as Record<string, unknown>)
      : { value: answer };
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
    ...(Object.keys(meta).length ? { _meta: meta } : {}),
  };
}
