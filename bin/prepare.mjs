/**
 * `npm install` and `npm ci` run this (package.json `prepare`): it compiles the DynamoDB Local launcher
 * (bin/buildLauncher.ts). Plain JavaScript, because tsx is a development dependency: an install without
 * them (`npm ci --omit=dev`) has no local server to build for, and must not fail.
 */
let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch {
  process.exit(0);
}
register();
await import('./buildLauncher.ts');
