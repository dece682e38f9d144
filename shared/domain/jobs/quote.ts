/**
 * POST /bd/jobs/quote: the expected price of a job request before it starts, from the same planner and
 * the same estimate POST /bd/jobs reserves (expectedCost.ts), and a single-use token bound to the
 * caller and exactly this request.
 */
import { requireChat } from '#shared/domain/storage/chats';
import { issueQuote } from '#shared/domain/quotes/quoteTokens';
import { CAPABILITIES, type Capability } from './capabilities';
import { JOB_LEDGER_TOOL } from './jobOperations';
import { JOB_QUOTE_KIND, expectedJobCost, jobQuoteRequest, planEnrichmentJob, type StartJobInput } from './jobRequest';

export interface JobQuote {
  quote_token: string;
  credits: number;
  expiry: string;
  breakdown: { capability: Capability; units: number; unit_credits: number; credits: number }[];
}

export async function quoteEnrichmentJob(
  input: Omit<StartJobInput, 'billing' | 'origin' | 'quoteToken'>,
): Promise<JobQuote> {
  const planned = planEnrichmentJob(input);
  if (input.chatId) await requireChat(input.userId, input.chatId);
  const { units, credits: estimate } = await expectedJobCost(planned);
  const { plan } = planned;
  const { token, record } = await issueQuote({
    userId: input.userId,
    kind: JOB_QUOTE_KIND,
    packageId: JOB_LEDGER_TOOL,
    credits: estimate,
    chatId: input.chatId ?? null,
    request: jobQuoteRequest(input),
  });
  return {
    quote_token: token,
    credits: estimate,
    expiry: record.expiresAt,
    breakdown: plan.capabilities.map((capability) => {
      const unitCredits = CAPABILITIES[capability].unitCredits;
      return {
        capability,
        units: units[capability],
        unit_credits: unitCredits,
        credits: units[capability] * unitCredits,
      };
    }),
  };
}
