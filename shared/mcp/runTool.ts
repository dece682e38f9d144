/**
 * One tools/call: the arguments only MCP adds (paging, the quote a spending tool needs) are checked
 * here, everything else goes to the tool's route unchanged, and its answer becomes the tool result.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { getBalance } from '#shared/domain/credits/credits';
import { sha256Hex } from '#shared/ids';
import { canonicalJson } from '#shared/json';
import { lowerCaseHeaders } from '#shared/http/headers';
import { packagePage } from './catalogue';
import {
  invokeRoute,
  OPERATIONS,
  routeRequest,
  type CallerScope,
  type Operation,
  type RouteRequest,
  unreadArgument,
} from './routeCall';
import { errorAnswerOf, errorResult, invalidArgument, pageRecords, successResult } from './toolResults';
import { MAX_PAGE, type ToolDef } from './tools';

/** Which quote tool gives each spending tool its token. */
const QUOTED_BY = new Map([
  ['execute_package', 'quote_package'],
  ['expand_result', 'quote_package (with expansion_scope)'],
  ['start_growth_run', 'quote_growth_plan'],
  ['start_enrichment_job', 'quote_enrichment_job'],
]);

/** A query argument as the route's coercing schema reads it (NaN for what it will refuse anyway). */
const queryNumber = (value: unknown): number =>
  typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;

/** Not given, as the route reads a query parameter (only empty text; spaces are a value it refuses). */
const isBlank = (value: unknown): boolean => value === undefined || value === '';

const isCount = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/**
 * The idempotency key of a spend, from its quote token and its arguments: a retried call replays the
 * first answer, while a call that went wrong (arguments other than the quoted ones) does not hold the
 * token's key against the corrected call. The token itself stays single use: the route sees to that.
 */
export const spendKey = (quoteToken: string, args: Record<string, unknown>): string =>
  `mcp-${sha256Hex(canonicalJson({ quote_token: quoteToken, arguments: args }))}`;

/**
 * How an agent's retry that races its first call (a client that timed out and sent it again) gets the
 * first answer: the route refuses a key whose request is still running, so the retry looks again, a
 * moment later, until the first call has answered (then replayed) or the function's time runs short.
 * The pause doubles (100 ms up to 1 s), so a slow first call costs its waiting retries some 20 looks.
 */
const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 1_000;
const MAX_WAIT_MS = 15_000;
/** What a call must keep of its invocation's time to answer after its last look. */
const IN_FLIGHT_MARGIN_MS = 3_000;

const stillRunning = (response: APIGatewayProxyResult): boolean =>
  response.statusCode === 409 && errorAnswerOf(response).error.code === 'idempotency_conflict';

/**
 * A spend, run once whatever its retries: under a key derived from the token and the arguments, so the
 * same request under the same key is the only thing the route can refuse that key for while it runs.
 */
async function spendOnce(op: Operation, request: RouteRequest, key: string, scope: CallerScope) {
  let response = await invokeRoute(op, request, { 'idempotency-key': key }, scope);
  for (let waited = 0, pause = FIRST_PAUSE_MS; stillRunning(response) && waited + pause <= MAX_WAIT_MS; ) {
    const left = scope.context.getRemainingTimeInMillis?.() ?? Number.POSITIVE_INFINITY;
    if (left < IN_FLIGHT_MARGIN_MS + pause) break;
    await new Promise((resolve) => setTimeout(resolve, pause));
    waited += pause;
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    response = await invokeRoute(op, request, { 'idempotency-key': key }, scope);
  }
  return response;
}

async function creditsAfter(headers: Record<string, string>, userId: string) {
  // A replay charged nothing now; a move is reported by the route's own credit meter.
  if (headers['idempotent-replayed'] !== 'true' && headers['x-credits-charged'] !== undefined) {
    return { charged: Number(headers['x-credits-charged']), remaining: Number(headers['x-credits-remaining']) };
  }
  return { charged: 0, remaining: (await getBalance(userId)).available };
}

export async function runTool(
  tool: ToolDef,
  given: Record<string, unknown>,
  scope: CallerScope,
): Promise<CallToolResult> {
  const args = { ...given };
  let page = { offset: 0, limit: MAX_PAGE };
  if (tool.recordsAt || !tool.operationId) {
    // Paging within one answer is the tool's own: the route never sees these two.
    const { limit = MAX_PAGE, offset = 0 } = args;
    delete args.limit;
    delete args.offset;
    if (!isCount(limit, 1, MAX_PAGE)) return invalidArgument('limit', `an integer from 1 to ${MAX_PAGE}`);
    if (!isCount(offset, 0, Number.MAX_SAFE_INTEGER)) return invalidArgument('offset', 'an integer of 0 or more');
    page = { offset, limit };
  }
  const caps: Record<string, number> = { ...(tool.pagedByRoute ? { limit: MAX_PAGE } : {}), ...tool.caps };
  for (const [name, cap] of Object.entries(caps)) {
    // The route coerces query text to a number, so "100" is read as 100: the cap holds for both.
    // Blank text is "not given" to the route (its own default, which may pass the cap): so it is here.
    // Anything else (not a number at all) is the route's to judge, as over HTTP.
    if (isBlank(args[name])) {
      if (name === 'limit') args[name] = cap;
      else delete args[name];
    } else if (queryNumber(args[name]) > cap) return invalidArgument(name, `at most ${cap} a call`);
  }
  const op = tool.operationId === undefined ? undefined : OPERATIONS.get(tool.operationId);
  if (tool.operationId && !op) throw new Error(`Tool ${tool.name} names an unknown operation ${tool.operationId}`);
  // The inputSchema forbids other properties: a misspelt one (ofset) must not answer as if it were absent.
  const unread = op ? unreadArgument(op.spec, args) : Object.keys(args)[0];
  if (unread !== undefined)
    return invalidArgument(unread.slice(0, 100), 'not an argument of this tool (see its inputSchema)');
  if (!op) return successResult(packagePage(page.offset, page.limit), {});

  let response: APIGatewayProxyResult;
  if (tool.kind === 'spend') {
    const token = args.quote_token;
    if (typeof token !== 'string' || token.length === 0)
      return invalidArgument(
        'quote_token',
        `required: call ${QUOTED_BY.get(tool.name)} with the same arguments first and pass its quote_token`,
      );
    response = await spendOnce(op, routeRequest(op.spec, args), spendKey(token, args), scope);
  } else {
    response = await invokeRoute(op, routeRequest(op.spec, args), {}, scope);
  }
  const answered = lowerCaseHeaders(
    Object.fromEntries(Object.entries(response.headers ?? {}).map(([k, v]) => [k, String(v)])),
  );
  if (response.statusCode >= 300) return errorResult(errorAnswerOf(response), answered['retry-after']);

  const meta: Record<string, unknown> = {};
  let answer: unknown = response.body ? JSON.parse(response.body) : {};
  if (tool.recordsAt) {
    const paged = pageRecords(answer, tool.recordsAt, page.offset, page.limit);
    answer = paged.answer;
    if (paged.page) meta.page = paged.page;
  }
  if (tool.withheld) answer = withholding(answer, tool.withheld);
  if (tool.kind === 'spend') meta.credits = await creditsAfter(answered, scope.caller.id);
  return successResult(answer, meta);
}

/** The answer (one record, or a list's `items`) with each withheld field that is present set to null. */
function withholding(answer: unknown, fields: readonly string[]): unknown {
  const hide = (record: unknown) =>
    record && typeof record === 'object'
      ? { ...record, ...Object.fromEntries(fields.filter((f) => Object.hasOwn(record, f)).map((f) => [f, null])) }
      : record;
  if (answer && typeof answer === 'object' && Array.isArray((answer as { items?: unknown }).items))
    return { ...answer, items: (answer as { items: unknown[] }).items.map(hide) };
  return hide(answer);
}
