import { readSecret } from '#shared/adapters/secrets';
import { sameSecret } from '#shared/ids';
import { UnauthorizedError } from '#shared/domain/errors';

/**
 * The operator bot's webhook proves it is Telegram with the secret given to setWebhook:
 * anything else is 401, before its update is read. Without a configured secret nobody can prove to be
 * Telegram: the endpoint is closed, not open.
 */
export async function verifyTelegramWebhookSecret(headers: Record<string, string | undefined>): Promise<void> {
  // One field of the platform secret, not every platform's credentials: this check runs in the request chain
  // every function bundles, which must not bring the platform registry with it.
  const expected = (await readSecret('platforms', ['TELEGRAM_WEBHOOK_SECRET'])).TELEGRAM_WEBHOOK_SECRET;
  if (!expected || !sameSecret(headers['x-telegram-bot-api-secret-token'], expected))
    throw new UnauthorizedError("X-Telegram-Bot-Api-Secret-Token does not match this deployment's webhook secret.");
}
