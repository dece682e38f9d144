import type { BuildOptions } from 'esbuild';
import { LogLevel, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

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
} as const satisfies BundlingOptions;

/**
 * The esbuild options NodejsFunction derives from STACK_BUNDLING (aws-cdk-lib's Bundling builds the
 * CLI line `esbuild --bundle <entry> --target=node22 --platform=node --format=cjs --outfile=…/index.js
 * --minify --sourcemap --sources-content=false --log-level=warning --main-fields=module,main`; with
 * bundleAwsSDK nothing is external). Written out here so a bundle can be built without synthesizing.
 */
export function stackEsbuildOptions(entry: string, outfile: string): BuildOptions & { outfile: string } {
  return {
    entryPoints: [entry],
    bundle: true,
    target: STACK_BUNDLING.target,
    platform: 'node',
    format: STACK_BUNDLING.format as BuildOptions["format"],
    outfile,
    minify: STACK_BUNDLING.minify,
    sourcemap: STACK_BUNDLING.sourceMap,
    sourcesContent: STACK_BUNDLING.sourcesContent,
    mainFields: [...STACK_BUNDLING.mainFields],
    logLevel: 'warning',
  };
}
