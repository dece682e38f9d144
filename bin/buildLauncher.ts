/**
 * `npm install` runs this (package.json `prepare`, through bin/prepare.mjs): it compiles the DynamoDB
 * Local launcher the local server and the tests start (bin/local/dynamo.ts). It never fails an install:
 * without a JDK, or on any error, the first start compiles it or falls back to the jar's own launcher,
 * and says so.
 */
import { buildLauncher } from './local/dynamo';

try {
  if (!(await buildLauncher()))
    process.stderr.write('DynamoDB Local launcher not compiled (no javac): the first start will say more.\n');
} catch (err) {
  process.stderr.write(`DynamoDB Local launcher not compiled: ${err instanceof Error ? err.message : String(err)}\n`);
}
