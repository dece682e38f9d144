/**
 * The Crisp hook endpoint's caller check, run before the hook is read or acted on: the signature
 * over the body as Crisp serialised it, keyed with the operator's CRISP_HOOK_SECRET. Without a
 * configured secret nobody can prove to be Crisp: the endpoint is closed, not open.
 */
import { readSecret } from '#shared/adapters/secrets';
import { now } from '#shared/adapters/ports';
import { UnauthorizedError } from '#shared/domain/errors';
import { nestsDeeperThan } from '#shared/json';
import { verifyCrispSignature } from './hookSignature';

/** A hook is a few kilobytes a few levels deep: anything past these is no hook, and never parsed or re-serialised. */
const MAX_HOOK_BYTES = 1024 * 1024;
const MAX_HOOK_DEPTH = 64;

const refused = () =>
  new UnauthorizedError(
    "X-Crisp-Signature does not sign this body with the plugin's hook secret, or X-Crisp-Request-Timestamp is too far from now.",
  );

export async function verifyCrispHookRequest(
  headers: Record<string, string | undefined>,
  rawBody: () => string,
): Promise<void> {
  // One field of the platform secret (the request chain every function bundles must not bring the platform registry).
  const hookSecret = (await readSecret('platforms', ['CRISP_HOOK_SECRET'])).CRISP_HOOK_SECRET;
  if (!hookSecret || !headers['x-crisp-signature']) throw refused();
  const raw = rawBody();
  if (Buffer.byteLength(raw, 'utf8') > MAX_HOOK_BYTES || nestsDeeperThan(raw, MAX_HOOK_DEPTH)) throw refused();
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw refused();
  }
  if (
    !verifyCrispSignature(
      hookSecret,
      headers['x-crisp-signature'],
      headers['x-crisp-request-timestamp'],
      body,
      now().getTime(),
    )
  )
    throw refused();
}
