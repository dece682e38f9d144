/**
 * The Crisp hook endpoint's caller check, run before the hook is read or acted on: the signature
 * over the body as Crisp serialised it, keyed with the operator's CRISP_HOOK_SECRET. Without a
 * configured secret nobody can prove to be Crisp: the endpoint is closed, not open.
 */
import { now, ports } from '#shared/adapters/ports';
import { UnauthorizedError } from '#shared/domain/errors';
import { verifyCrispSignature } from './hookSignature';

export async function verifyCrispHookRequest(headers: Record<string, string | undefined>, rawBody: () => string): Promise<void> {
  const { hookSecret } = (await ports().secrets.platformCredentials()).crisp;
  let body: unknown;
  try {
    body = JSON.parse(rawBody());
  } catch {
    body = undefined;
  }
  if (!hookSecret || body === undefined || !verifyCrispSignature(hookSecret, headers['x-crisp-signature'], headers['x-crisp-request-timestamp'], body, now().getTime())) {
    throw new UnauthorizedError('X-Crisp-Signature does not sign this body with the plugin\'s hook secret, or X-Crisp-Request-Timestamp is too far from now.');
  }
}
