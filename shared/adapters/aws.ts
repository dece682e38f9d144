import { optionalEnv } from '#shared/config/env';
import { SystemDns } from './dns';
import { SecretsManagerSecrets } from './secrets';
import { SystemResolver } from './hostResolver';
import { setDefaultPorts } from './ports';
import { decorateDynamoClient } from '#shared/store/client';
import { traced } from '#shared/observability/tracer';

/**
 * Called at module scope by every Lambda entry point: the ports every function may use, as lazy
 * defaults unless tests or the local server installed others. The queue (sqsQueue.ts), the events
 * bus (eventBridgeEvents.ts) and payments (payments.ts) are registered by the functions that use
 * them, so that the others neither bundle nor load those SDKs.
 */
export function useAwsPorts(): void {
  decorateDynamoClient(traced);
  setDefaultPorts({
    dns: () => new SystemDns(),
    secrets: () => new SecretsManagerSecrets(optionalEnv('PLATFORM_SECRET_ARN')),
    hostResolver: () => new SystemResolver(),
  });
}
