import { required } from './harness';
import { mustGet } from '#shared/maps';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { sideFileHooks, stackEsbuildOptions } from '#infra/bundling';
import { FUNCTIONS, type FunctionName, type FunctionNeeds } from '#infra/functionCatalog';
import { PROJECT_ROOT } from '#infra/projectRoot';

export const HELLO_WORLD = 'hello-world';

export interface BuiltBundle {
  /** A function of infra/functionCatalog.ts, or HELLO_WORLD. */
  name: string;
  /** The bundle's index.js (its source map beside it, as deployed). */
  file: string;
  bytes: number;
  /** Bytes in the bundle per input file, relative to the project root where it is inside it. */
  inputs: Metafile['outputs'][string]['inputs'];
  /** The environment the stack gives the function (values are placeholders). */
  env: Record<string, string>;
  /** The data files copied beside index.js as the stack copies them (catalogue `sideFiles`), with their sizes. */
  sideFiles: { name: string; bytes: number }[];
  /** esbuild's warnings (the stack's build prints them). */
  warnings: string[];
}

/** The environment variables a function gets from the stack, so that loading it behaves as in Lambda. */
function environmentOf(name: string): Record<string, string> {
  const needs = (FUNCTIONS as Record<string, (typeof FUNCTIONS)[FunctionName] | undefined>)[name];
  return {
    AWS_REGION: 'us-east-1',
    TABLE_NAME: 'bench-table',
    ...(needs?.queue ? { PIPELINE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/bench' } : {}),
    ...(needs?.events ? { EVENT_BUS_NAME: 'bench-bus' } : {}),
  };
}

/** Runs the stack's afterBundling commands (infra/bundling.ts, sideFileHooks) for a bundle's folder. */
function copySideFiles(files: readonly string[], outputDir: string): { name: string; bytes: number }[] {
  const commands = sideFileHooks(files).afterBundling(PROJECT_ROOT, outputDir);
  if (commands.length) execFileSync('/bin/sh', ['-c', commands.join(' && ')], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  return readdirSync(outputDir)
    .filter((name) => !/^index\.js(\.map)?$/.test(name))
    .map((name) => ({ name, bytes: statSync(join(outputDir, name)).size }));
}

/**
 * Builds every function of the catalogue and the hello-world yardstick with the stack's esbuild
 * options (infra/bundling.ts) into a temporary folder, each with its side files beside it as the
 * stack ships them; `dispose` removes it.
 */
export async function buildBundles(only?: readonly string[]): Promise<{ bundles: BuiltBundle[]; dispose: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'outreach-bundles-'));
  const entries: [string, string][] = [
    [HELLO_WORLD, join(PROJECT_ROOT, 'bin/bench/helloWorld/handler.ts')],
    ...Object.entries(FUNCTIONS)
      .filter(([name]) => !only || only.includes(name))
      .map(([name]): [string, string] => [name, join(PROJECT_ROOT, 'functions', name, 'handler.ts')]),
  ];
  const bundles: BuiltBundle[] = [];
  for (const [name, entry] of entries.filter(([name]) => !only || only.includes(name))) {
    const file = join(dir, name, 'index.js');
    const result = await build({ ...stackEsbuildOptions(entry, file), metafile: true, absWorkingDir: PROJECT_ROOT });
    const output = required(
      Object.entries(result.metafile.outputs).find(([out]) => out.endsWith('index.js')),
      `the index.js output of ${name}`,
    )[1];
    const sideFiles = copySideFiles(
      (FUNCTIONS as Record<string, FunctionNeeds | undefined>)[name]?.sideFiles ?? [],
      join(dir, name),
    );
    const warnings = result.warnings.map((w) => `${w.location?.file ?? ''}: ${w.text}`);
    bundles.push({
      name,
      file,
      bytes: statSync(file).size,
      inputs: output.inputs,
      env: environmentOf(name),
      sideFiles,
      warnings,
    });
  }
  return { bundles, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Time to require one bundle in a fresh Node process, as Lambda's runtime does at a cold start
 * (without --enable-source-maps, as the stack runs it): module evaluation only, process start excluded.
 */
function loadOnce(bundle: BuiltBundle): number {
  const script = `const t=process.hrtime.bigint();require(${JSON.stringify(bundle.file)});process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))`;
  const out = execFileSync(process.execPath, ['-e', script], {
    env: { PATH: process.env.PATH ?? '', ...bundle.env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return Number(out);
}

/**
 * Median and fastest load time of each bundle over `rounds` rounds. A round loads every bundle once,
 * so a burst of load on the (shared) machine weighs on all of them alike rather than on one; the
 * fastest of the rounds is the figure least disturbed by other work on the machine.
 */
export function loadTimes(bundles: BuiltBundle[], rounds = 9): Map<string, { median: number; min: number }> {
  const samples = new Map(bundles.map((b) => [b.name, [] as number[]]));
  for (let round = 0; round < rounds; round++)
    for (const bundle of bundles) mustGet(samples, bundle.name, 'samples').push(loadOnce(bundle));
  return new Map(
    [...samples].map(([name, xs]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return [name, { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0] }];
    }),
  );
}

/** Bytes of the bundle that come from the `stripe` package. */
const stripeBytes = (b: BuiltBundle): number =>
  Object.entries(b.inputs).reduce(
    (sum, [file, input]) => sum + (/node_modules\/stripe\//.test(file) ? input.bytesInOutput : 0),
    0,
  );

/** `npm run bench -- bundles`: size and load time of each function beside the hello-world's, as ratios. */
export async function printBundleFigures(print: (line: string) => void = console.log): Promise<void> {
  const { bundles, dispose } = await buildBundles();
  try {
    const times = loadTimes(bundles);
    const hello = required(
      bundles.find((b) => b.name === HELLO_WORLD),
      'the hello-world bundle',
    );
    const helloMs = mustGet(times, HELLO_WORLD, 'times');
    print(
      `Built with infra/bundling.ts (the stack's options); load = cold require in a fresh process (no --enable-source-maps, as in the stack), 9 rounds (median, fastest). Goal: ratios <= 1.3.`,
    );
    print(
      `KiB and size x are the JS bundle (index.js); side KiB is the data files shipped beside it (catalogue sideFiles), read at run time when needed, not at load.`,
    );
    print(
      `${'function'.padEnd(14)} ${'KiB'.padStart(8)} ${'size x'.padStart(7)} ${'load ms'.padStart(8)} ${'load x'.padStart(7)} ${'min ms'.padStart(7)} ${'min x'.padStart(6)} ${'side KiB'.padStart(8)}  size x without Stripe (the goal allows Stripe's own code)`,
    );
    for (const b of bundles) {
      const { median, min } = mustGet(times, b.name, 'times');
      const stripe = stripeBytes(b);
      const withoutStripe = stripe ? `  ${((b.bytes - stripe) / hello.bytes).toFixed(2)}` : '';
      const side = b.sideFiles.reduce((sum, f) => sum + f.bytes, 0);
      print(
        `${b.name.padEnd(14)} ${(b.bytes / 1024).toFixed(1).padStart(8)} ${(b.bytes / hello.bytes).toFixed(2).padStart(7)} ` +
          `${median.toFixed(1).padStart(8)} ${(median / helloMs.median).toFixed(2).padStart(7)} ${min.toFixed(1).padStart(7)} ${(min / helloMs.min).toFixed(2).padStart(6)} ` +
          `${(side ? (side / 1024).toFixed(1) : '-').padStart(8)}${withoutStripe}`,
      );
    }
    for (const b of bundles)
      for (const f of b.sideFiles)
        print(`side file of ${b.name}: ${f.name}, ${(f.bytes / 1024).toFixed(1)} KiB beside index.js`);
    for (const b of bundles) for (const w of b.warnings) print(`esbuild warning in ${b.name}: ${w}`);
  } finally {
    dispose();
  }
}

/** Bytes of a bundle that come from inputs whose path matches `pattern`. */
const bytesFrom = (b: BuiltBundle, pattern: RegExp): number =>
  Object.entries(b.inputs).reduce((sum, [file, input]) => sum + (pattern.test(file) ? input.bytesInOutput : 0), 0);

/**
 * The MCP function beside the hello-world and the functions whose routes it runs: its size and load
 * time as ratios, and what the MCP SDK itself adds to it.
 */
export async function printMcpBundleFigures(print: (line: string) => void = console.log): Promise<void> {
  const { bundles, dispose } = await buildBundles(['mcp', 'account', 'jobs', 'intelligence']);
  try {
    const times = loadTimes(bundles, 5);
    const hello = required(
      bundles.find((b) => b.name === HELLO_WORLD),
      'the hello-world bundle',
    );
    const helloMs = mustGet(times, HELLO_WORLD, 'times').median;
    for (const b of bundles) {
      print(
        `bundle ${b.name.padEnd(13)} ${(b.bytes / 1024).toFixed(1).padStart(8)} KiB  ${(b.bytes / hello.bytes).toFixed(2)}x hello-world  load ${mustGet(times, b.name, 'times').median.toFixed(1)} ms (${(mustGet(times, b.name, 'times').median / helloMs).toFixed(2)}x)`,
      );
    }
    const mcp = required(
      bundles.find((b) => b.name === 'mcp'),
      'the mcp bundle',
    );
    const sdk = bytesFrom(mcp, /node_modules\/@modelcontextprotocol\//);
    const stripe = bytesFrom(mcp, /node_modules\/stripe\//);
    print(
      `of the mcp bundle: @modelcontextprotocol/* ${(sdk / 1024).toFixed(1)} KiB, stripe ${(stripe / 1024).toFixed(1)} KiB (through the account routes it runs)`,
    );
  } finally {
    dispose();
  }
}
