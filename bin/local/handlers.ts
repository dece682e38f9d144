import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { ApiGroup } from '#shared/schemas/groups';

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** The Lambda entry point behind each API group, loaded on first use like a cold start. */
export const groupHandlers: Record<ApiGroup, () => Promise<ApiHandler>> = {
  public: async () => (await import('#functions/public/handler')).handler,
  webhooks: async () => (await import('#functions/webhooks/handler')).handler,
  account: async () => (await import('#functions/account/handler')).handler,
  storage: async () => (await import('#functions/storage/handler')).handler,
  intelligence: async () => (await import('#functions/intelligence/handler')).handler,
  growth: async () => (await import('#functions/growth/handler')).handler,
  jobs: async () => (await import('#functions/jobs/handler')).handler,
  moderation: async () => (await import('#functions/moderation/handler')).handler,
  outbound: async () => (await import('#functions/outbound/handler')).handler,
  mcp: async () => (await import('#functions/mcp/handler')).handler,
};

/** The response-streaming function behind endpoints marked `streaming`. */
export const streamingHandler = async () => (await import('#functions/jobs-events/handler')).handler;
export const workerHandler = async () => (await import('#functions/worker/handler')).handler;
export const deadLetterHandler = async () => (await import('#functions/dead-letters/handler')).handler;
export const renewalsHandler = async () => (await import('#functions/renewals/handler')).handler;
export const captchaHandler = async () => (await import('#functions/captchas/handler')).handler;
export const pollHandler = async () => (await import('#functions/polls/handler')).handler;
export const webhookSenderHandler = async () => (await import('#functions/webhook-sender/handler')).handler;
