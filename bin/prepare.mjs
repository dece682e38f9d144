/**
 * `npm install` and `npm ci` run this (package.json `prepare`): it compiles the DynamoDB Local launcher
 * the local server and the tests start (bin/local/dynamo.ts), so a first start begins Java at once,
 * and prepares the curated dataset's items (bin/local/seedCache.ts), so a first start only reads them.
 * Plain JavaScript, because tsx is a development dependency: an install without them (`npm ci
 * --omit=dev`) has no local server to build for. It never fails an install: without a JDK, or on any
 * error, the first start compiles the launcher or falls back to the jar's own, and says so, and
 * generates the dataset itself.
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
try {
  const { preparedSeed } = await import('./local/seedCache.ts');
  preparedSeed();
} catch (err) {
  process.stderr.write(`Curated dataset not prepared: ${err instanceof Error ? err.message : String(err)}\n`);
}
