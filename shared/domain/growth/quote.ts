/**
 * POST /growth/quote: checks that the plan is one resolve issued to this caller, unchanged, prices
 * it, and issues a single-use token bound to the normalised plan. A plan that cannot be priced is
 * an answer (ok false, error_code), not an HTTP error.
 */
import { now } from '#shared/adapters/ports';
import { issueQuote } from '#shared/domain/quotes/quoteTokens';
import { getPlanIssue } from '#shared/store/growthRepo';
import { requireChat } from '#shared/domain/storage/chats';
import { QuoteRefusal, type QuoteErrorCode } from './errors';
import { goalDefinition } from './goals';
import { goalPlanSchema, normalizeGoalPlan, type GoalPlan } from './plan';
import { inputNeedMet, inputNeedRequirement } from './planner';
import {
  creditsTotal,
  estimateDelivered,
  externalCredits,
  priceBreakdown,
  type BreakdownLine,
  type DeliveryEstimate,
} from './pricing';
import { PLAN_LIFETIME_SECONDS } from './resolve';
import { planFingerprint, quotedPlan } from './signature';
import { GROWTH_LEDGER_TOOL } from './startRun';

export interface QuoteRequest {
  goal_plan: Record<string, unknown>;
  max_external_spend_credits?: number;
  chat_id?: string;
}

export interface QuoteResponse {
  ok: boolean;
  quotable: boolean;
  quote_token: string | null;
  expires_at: string | null;
  credits_total: number | null;
  breakdown: BreakdownLine[];
  estimated_delivered: DeliveryEstimate | null;
  output_preview: {
    rows: number;
    preview_rows: number;
    required_fields: string[];
    verified_emails: number;
    enriched_contacts: number;
    sample: unknown[];
  } | null;
  goal_plan: GoalPlan | null;
  missing_inputs: string[];
  error_code: QuoteErrorCode | null;
  detail: string | null;
  next_step: string;
}

/** The plan as sent, validated and normalised; invalid_goal_plan when it is not a plan at all. */
function parsePlan(raw: unknown): GoalPlan {
  const parsed = goalPlanSchema.safeParse(raw);
  if (!parsed.success) {
    const where = parsed.error.issues.slice(0, 5).map((i) => `${['goal_plan', ...i.path].join('.')}: ${i.message}`);
    throw new QuoteRefusal(
      'invalid_goal_plan',
      `goal_plan is not a plan from POST /growth/resolve (${where.join('; ')}).`,
      'Send the goal_plan object from POST /growth/resolve unchanged.',
    );
  }
  return normalizeGoalPlan(parsed.data);
}

async function assertIssuedToCaller(userId: string, plan: GoalPlan): Promise<void> {
  const issued = await getPlanIssue(userId, plan.plan_id);
  const fresh = issued && now().getTime() - Date.parse(issued.issuedAt) < PLAN_LIFETIME_SECONDS * 1000;
  if (!issued || !fresh || issued.fingerprint !== planFingerprint(userId, plan)) {
    throw new QuoteRefusal(
      'quote_validation_failed',
      'This goal_plan was not issued to you by POST /growth/resolve, has been changed since, or is older than a day.',
      'Resolve the goal again and pass its goal_plan to quote unchanged; to change the plan, change the resolve request.',
    );
  }
}

function assertInputs(plan: GoalPlan): void {
  const need = goalDefinition(plan.goal_type).needs;
  if (!inputNeedMet(need, plan.input_assets)) {
    throw new QuoteRefusal(
      'missing_input_assets',
      `A ${plan.goal_type} plan needs ${inputNeedRequirement(need)}, and the plan has none.`,
      'Add the missing inputs to input_text or input_assets, resolve again, and quote the new goal_plan.',
      [inputNeedRequirement(need)],
    );
  }
}

/**
 * The run is the job this plan quotes, and a job consumes no more units of a capability than the
 * quote's upper bound for it: a plan that passes here cannot spend more on providers than the cap.
 */
function assertExternalCap(lines: BreakdownLine[], cap: number | undefined): void {
  const external = externalCredits(lines);
  if (cap !== undefined && external > cap) {
    throw new QuoteRefusal(
      'max_external_spend_too_low',
      `The plan's external provider spend is ${external} credits, above max_external_spend_credits ${cap}.`,
      `Raise max_external_spend_credits to at least ${external}, or resolve again with fewer inputs.`,
    );
  }
}

const refused = (err: QuoteRefusal, plan: GoalPlan | null, lines: BreakdownLine[]): QuoteResponse => ({
  ok: false,
  quotable: false,
  quote_token: null,
  expires_at: null,
  credits_total: lines.length > 0 ? creditsTotal(lines) : null,
  breakdown: lines,
  estimated_delivered: null,
  output_preview: null,
  goal_plan: plan,
  missing_inputs: err.missingInputs,
  error_code: err.code,
  detail: err.detail,
  next_step: err.nextStep,
});

export async function quoteGrowthPlan(userId: string, request: QuoteRequest): Promise<QuoteResponse> {
  const chat = request.chat_id ? await requireChat(userId, request.chat_id) : undefined;
  let plan: GoalPlan | null = null;
  let lines: BreakdownLine[] = [];
  try {
    plan = parsePlan(request.goal_plan);
    await assertIssuedToCaller(userId, plan);
    assertInputs(plan);
    lines = priceBreakdown(plan);
    assertExternalCap(lines, request.max_external_spend_credits);
  } catch (err) {
    if (err instanceof QuoteRefusal) return refused(err, err.code === 'quote_validation_failed' ? null : plan, lines);
    throw err;
  }

  const total = creditsTotal(lines);
  // Tokens issued before growth quotes moved to the shared quote module were stored raw under another key: such a
  // token (alive 15 minutes at most) is now unknown, and POST /growth/run answers it 422 quote_mismatch.
  const { token: quoteToken, record } = await issueQuote({
    userId,
    kind: 'growth',
    packageId: GROWTH_LEDGER_TOOL,
    credits: total,
    chatId: chat?.id ?? null,
    request: quotedPlan(userId, plan),
  });
  const expiresAt = record.expiresAt;
  const delivered = estimateDelivered(plan);
  const sampleSource = plan.input_assets.contacts.length > 0 ? plan.input_assets.contacts : plan.input_assets.companies;
  return {
    ok: true,
    quotable: true,
    quote_token: quoteToken,
    expires_at: expiresAt,
    credits_total: total,
    breakdown: lines,
    estimated_delivered: delivered,
    output_preview: {
      rows: delivered.rows,
      preview_rows: plan.output.preview_rows,
      required_fields: plan.output.required_fields,
      verified_emails: delivered.verified_emails,
      enriched_contacts: delivered.enriched_contacts,
      sample: sampleSource.slice(0, plan.output.preview_rows),
    },
    goal_plan: plan,
    missing_inputs: [],
    error_code: null,
    detail: null,
    next_step: `POST /growth/run with this quote_token and goal_plan before ${expiresAt}; ${total} credits are reserved at start and only what the run consumes is charged.`,
  };
}
