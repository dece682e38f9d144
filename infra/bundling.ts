import * as path from 'node:path';
import type { BuildOptions } from 'esbuild';
import { AssetStaging } from 'aws-cdk-lib';
import { LogLevel, OutputFormat, type BundlingOptions, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * How every Lambda is bundled, in one place so that the stack (appFunction.ts) and whatever measures
 * or checks the bundles (the bench's `bundles` suite, test/infra/bundles.test.ts) build the same file.
 */
export const STACK_BUNDLING = {
  forceDockerBundling: false,
  // CommonJS: the handlers only run synchronous code at module scope, and CJS output bundles
  // CommonJS dependencies (stripe, middy internals) without ESM `require` shims.
  format: OutputFormat.CJS,
  target: 'node22',
  // Prefer the packages' ESM builds as input so esbuild can tree-shake the AWS SDK.
  mainFields: ['module', 'main'],
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  bundleAwsSDK: true,
  logLevel: LogLevel.WARNING,
  // A module finds the data files shipped beside it (sideFiles of infra/functionCatalog.ts) with
  // import.meta.dirname, as under tsx and vitest; CommonJS output has no import.meta, so in a bundle
  // it is the bundle's own folder (in Lambda, the task root). Also spares esbuild's empty-import-meta warning.
  define: { 'import.meta.dirname': '__dirname' },
  // Paths resolve from where esbuild runs: the project root locally, and in the Docker fallback
  // (no local esbuild) the mounted input folder rather than the image's `/`.
  workingDirectory: AssetStaging.BUNDLING_INPUT_DIR,
} as const satisfies BundlingOptions;

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * What ships a function's side files (infra/functionCatalog.ts, `sideFiles`: paths from the project
 * root): NodejsFunction runs these after esbuild, copying each file into the asset beside index.js
 * under its own name; the bench's `bundles` suite runs the same commands beside its bundles.
 */
export function sideFileHooks(files: readonly string[]): ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) =>
      files.map(
        (file) =>
          `cp ${shellQuote(path.posix.join(inputDir, file))} ${shellQuote(path.posix.join(outputDir, path.posix.basename(file)))}`,
      ),
  };
}

/**
 * The esbuild options NodejsFunction derives from STACK_BUNDLING (aws-cdk-lib's Bundling builds the
 * CLI line `esbuild --bundle <entry> --target=node22 --platform=node --format=cjs --outfile=…/index.js
 * --minify --sourcemap --sources-content=false --log-level=warning --main-fields=module,main
 * --define:import.meta.dirname=__dirname`; with bundleAwsSDK nothing is external). Written out here so a bundle can be built without synthesizing.
 */
export function stackEsbuildOptions(entry: string, outfile: string): BuildOptions & { outfile: string } {
  return {
    entryPoints: [entry],
    bundle: true,
    target: STACK_BUNDLING.target,
    platform: 'node',
    format: STACK_BUNDLING.format as BuildOptions['format'],
    outfile,
    minify: STACK_BUNDLING.minify,
    sourcemap: STACK_BUNDLING.sourceMap,
    sourcesContent: STACK_BUNDLING.sourcesContent,
    mainFields: [...STACK_BUNDLING.mainFields],
    define: { ...STACK_BUNDLING.define },
    logLevel: 'warning',
  };
}
