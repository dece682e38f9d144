import { reloadConfig } from '#shared/config/config';
import { ddb } from '#shared/store/client';

/**
 * The unit tier runs with no DynamoDB Local. A unit test that reaches the table fails at once with this
 * message rather than waiting on a connection: its file belongs in the stack tier (CONTRIBUTING.md).
 */
export const NO_TABLE_MESSAGE =
  'The unit tier has no DynamoDB: this test reaches the table, so take its file out of UNIT_TESTS in vitest.config.ts: it belongs in the stack tier (CONTRIBUTING.md)';

// Nothing listens here, so a client of its own (one made after a test reset its modules, or with no
// endpoint, which would otherwise go to AWS with the developer's credentials) is refused at once.
const NOWHERE = 'http://127.0.0.1:9';
process.env.DYNAMODB_ENDPOINT = NOWHERE;
process.env.AWS_ENDPOINT_URL = NOWHERE;
process.env.AWS_ACCESS_KEY_ID = 'unit-tier';
process.env.AWS_SECRET_ACCESS_KEY = 'unit-tier';
delete process.env.AWS_PROFILE;
delete process.env.AWS_SESSION_TOKEN;
process.env.TABLE_NAME = 'unit-tier-has-no-table';
process.env.AWS_REGION ??= 'us-east-1';
reloadConfig();

// A worker that runs several files in one module graph (no isolation) runs this file again for each.
ddb().middlewareStack.remove('unitTierHasNoTable');
ddb().middlewareStack.add(
  () => async () => {
    throw new Error(NO_TABLE_MESSAGE);
  },
  { step: 'initialize', name: 'unitTierHasNoTable' },
);
