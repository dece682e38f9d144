/**
 * The web console, built by esbuild from console/ into the two files the public function serves
 * (infra/functionCatalog.ts, CONSOLE_SIDE_FILES). They are committed like the OpenAPI document, so
 * "clone, npm install, npm start" serves the console without a build step, the stack ships exactly
 * what was reviewed, and test/http/consoleFiles.test.ts fails while they are stale.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { PROJECT_ROOT } from '#infra/projectRoot';

export async function buildConsole(): Promise<{ 'console.js': string; 'console.css': string }> {
  const common = { bundle: true, minify: true, write: false, legalComments: 'none', logLevel: 'silent' } as const;
  const [script, styles] = await Promise.all([
    build({
      ...common,
      entryPoints: [join(PROJECT_ROOT, 'console/main.ts')],
      format: 'esm',
      target: 'es2022',
      platform: 'browser',
      tsconfig: join(PROJECT_ROOT, 'console/tsconfig.json'),
    }),
    build({ ...common, entryPoints: [join(PROJECT_ROOT, 'console/console.css')] }),
  ]);
  return { 'console.js': script.outputFiles[0].text, 'console.css': styles.outputFiles[0].text };
}
