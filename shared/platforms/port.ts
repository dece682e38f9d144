/**
 * The platform port: one planned call in, its outcome out, through the module of its platform
 * (registry.ts, keyed by the call's community type) with the operator's credentials. `not_configured`
 * when the platform has no credentials: the caller records that instead of failing.
 */
import { platformCredentials } from './credentials';
import type { PlannedCall } from '#shared/store/platformCallsRepo';
import type { CommunityType } from './names';
import { PLATFORMS } from './registry';
import type { PortOutcome } from './result';
import { recordMetric } from '#shared/observability/metrics';

export type { PortOutcome };

/** Where and when a call is sent: the delivery's community, and for a timed call when it ends (see SendContext). */
export interface CallContext {
  communityId?: string;
  endsAt?: Date;
  /** The delivery waited before this try (see SendContext.waited). */
  waited?: boolean;
}

export async function callPlatform(call: PlannedCall, context: CallContext = {}): Promise<PortOutcome> {
  const outcome = await send(call, context);
  if (outcome !== 'not_configured' && !outcome.ok) recordMetric('PlatformCallFailures', 1, { platform: call.platform });
  return outcome;
}

async function send(call: PlannedCall, context: CallContext): Promise<PortOutcome> {
  // A platform without a module is refused, never sent through another platform's adapter.
  if (!Object.hasOwn(PLATFORMS, call.platform))
    return { ok: false, status: 400, error: `Unknown platform ${String(call.platform)}` };
  const platform = PLATFORMS[call.platform];
  const credentials = (await platformCredentials())[call.platform];
  // The union of every module's send, called with its own credentials (the registry pairs them).
  const module = platform as {
    credentials: { configured(c: unknown): boolean };
    send(
      call: PlannedCall,
      ctx: { credentials: unknown; communityId: string | undefined; endsAt: Date | undefined; waited: boolean },
    ): Promise<PortOutcome>;
  };
  if (!module.credentials.configured(credentials)) return 'not_configured';
  return module.send(call, {
    credentials,
    communityId: context.communityId,
    endsAt: context.endsAt,
    waited: context.waited ?? false,
  });
}

export async function platformConfigured(platform: CommunityType): Promise<boolean> {
  const credentials = (await platformCredentials())[platform];
  return (PLATFORMS[platform].credentials as { configured(c: unknown): boolean }).configured(credentials);
}
