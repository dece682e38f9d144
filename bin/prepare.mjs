/**
 * `npm install` and `npm ci` run this (package.json `prepare`): it compiles the DynamoDB Local launcher
 * the local server and the tests start (bin/local/dynamo.ts), so a first start begins Java at once.
 * Plain JavaScript, because tsx is a development dependency: an install without them (`npm ci
 * --omit=dev`) has no local server to build for. It never fails an install: without a JDK, or on any
 * error, the first start compiles the launcher or falls back to the jar's own, and says so.
 */
let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch {
  process.exit(0);
}
register();
try {
  const { buildLauncher } = await import('./local/dynamo.ts');
  if (!(await buildLauncher()))
    process.stderr.write('DynamoDB Local launcher not compiled (no javac): the first start will say more.\n');
} catch (err) {
  process.stderr.write(`DynamoDB Local launcher not compiled: ${err instanceof Error ? err.message : String(err)}\n`);
}
