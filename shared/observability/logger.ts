import { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevel } from '@aws-lambda-powertools/logger/types';
import { logLevelSetting } from '#shared/config/config';
import { mapErrorStacks } from './sourceMappedStack';

export const SERVICE_NAME = 'outreach-intelligence';

/**
 * The one logger of every function (Powertools): JSON lines with the Lambda request id, function
 * name and cold start once a handler's middleware injected the context. The level comes from
 * POWERTOOLS_LOG_LEVEL (the stack sets it per environment; tests keep WARN), else LOG_LEVEL, in
 * either case. The local server writes its access lines at DEBUG (bin/local/runtime.ts).
 *
 * What goes in a line is ids, routes, counts and reasons: never a request body, a header, a key,
 * a secret or an e-mail address (test/e2e/logging.test.ts checks a run for them). An error's stack
 * is written in source terms (sourceMappedStack.ts), though the functions run without source maps.
 */
export const logger = new Logger({
  serviceName: SERVICE_NAME,
  jsonReplacerFn: mapErrorStacks,
  logLevel: logLevelSetting() as LogLevel,
});
