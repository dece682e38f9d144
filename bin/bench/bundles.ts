import { readdirSync } from 'node:fs';
import { build } from 'esbuild';

/** Each function's minified bundle, built with the options the CDK stack uses. */
export async function bundleSizes(): Promise<{ name: string; bytes: number }[]> {
  const names = readdirSync('functions', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  const sizes: { name: string; bytes: number }[] = [];
  for (const name of names) {
    const out = await build({
      entryPoints: [`functions/${name}/handler.ts`],
      bundle: true,
      minify: true,
      platform: 'node',
      target: 'node22',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
    });
    sizes.push({ name, bytes: out.outputFiles.reduce((sum, f) => sum + f.contents.byteLength, 0) });
  }
  return sizes;
}
