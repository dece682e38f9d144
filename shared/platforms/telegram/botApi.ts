/**
 * The Telegram Bot API over fetch: `POST {base}/bot{token}/{method}` with a JSON body; every answer
 * is `{ok, result}` or `{ok: false, error_code, description, parameters: {retry_after}}`.
 * https://core.telegram.org/bots/api#making-requests
 */
import type { ResponseParameters } from '@grammyjs/types';
import { platformFetch, platformUrl, type CallOutcome } from '#shared/platforms/result';

interface BotApiAnswer {
  ok: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: ResponseParameters;
}

export class TelegramBotApi {
  constructor(
    private readonly token: string,
    private readonly base: string,
  ) {}

  async call(method: string, body: Record<string, unknown>): Promise<CallOutcome> {
    const response = await platformFetch(platformUrl(this.base, `/bot${this.token}/${method}`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!(response instanceof Response)) return response;
    let answer: BotApiAnswer;
    try {
      answer = (await response.json()) as BotApiAnswer;
    } catch {
      return {
        ok: false,
        status: response.status || 0,
        error: `Telegram answered HTTP ${response.status} without JSON`,
      };
    }
    if (answer.ok) return { ok: true, result: answer.result };
    const status = answer.error_code ?? response.status;
    return {
      ok: false,
      status,
      error: `${method}: ${answer.description ?? `HTTP ${status}`}`,
      ...(answer.parameters?.retry_after !== undefined ? { retryAfterSeconds: answer.parameters.retry_after } : {}),
    };
  }
}
