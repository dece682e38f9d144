import { optionalEnv } from '#shared/config/env';
import type { Ports } from './ports';
import { SecretsManagerSecrets } from './secrets';

/**
 * The AWS factory of the platform-secret port, alone in its module because the secrets adapter
 * imports the platform registry (every platform's moderation code): only the moderation and worker
 * handlers, wired to `secrets`, import it.
 */
export const platformSecrets = (): Ports['secrets'] => new SecretsManagerSecrets(optionalEnv('PLATFORM_SECRET_ARN'));
