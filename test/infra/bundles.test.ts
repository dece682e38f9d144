import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundles, HELLO_WORLD, type BuiltBundle } from '#bin/bench/bundles';
import { AppFunction } from '#infra/appFunction';
import { sideFileHooks, stackEsbuildOptions } from '#infra/bundling';
import { DISPOSABLE_DOMAINS_SIDE_FILE, FUNCTIONS, OPENAPI_SIDE_FILE, type FunctionName } from '#infra/functionCatalog';
import { PROJECT_ROOT } from '#infra/projectRoot';

// Structural facts of the bundles, built exactly as the stack builds them (infra/bundling.ts). Sizes
// and load times are the bench's business (`npm run bench -- bundles`): they are not asserted here.
let bundles: BuiltBundle[];
let dispose: () => void;
beforeAll(async () => {
  ({ bundles, dispose } = await buildBundles());
}, 180_000);
afterAll(() => dispose?.());

const functionBundles = () => bundles.filter((b) => b.name !== HELLO_WORLD);
const inputsOf = (b: BuiltBundle) => Object.keys(b.inputs);
const carries = (b: BuiltBundle, pattern: RegExp) => inputsOf(b).some((file) => pattern.test(file));
/** What a bundle's function needs (every function has its own entry folder). */
const needsOfEntry = (name: string) => {
  const needs = FUNCTIONS[name as FunctionName];
  return { queue: !!(needs.queue || needs.webhookQueue), events: !!needs.events, stripe: !!needs.stripe };
};

describe('function bundles', () => {
  it('are built for every function of the catalogue and the hello-world yardstick', () => {
    expect(bundles.map((b) => b.name).sort()).toEqual([HELLO_WORLD, ...Object.keys(FUNCTIONS)].sort());
    for (const b of bundles) expect(b.bytes, b.name).toBeGreaterThan(0);
  });

  it('carry no zod locale but the default English one (zod is imported as a namespace so the rest is tree-shaken)', () => {
    for (const b of functionBundles()) {
      const locales = inputsOf(b).filter((file) => /zod\/v4\/locales\//.test(file));
      // The MCP SDK imports zod's classic build, whose locale index comes with it; our own code never does.
      const expected = b.name === 'mcp' ? ['en.js', 'index.js'] : ['en.js'];
      expect(
        locales.map((file) => path.basename(file)),
        b.name,
      ).toEqual(locales.length ? expected : []);
    }
  });

  it('carry no tracing SDK: the active tracing of Lambda records each invocation without code in the bundle', () => {
    for (const b of functionBundles())
      expect(carries(b, /node_modules\/(aws-xray-sdk-core|@aws-lambda-powertools\/tracer|semver)\//), b.name).toBe(
        false,
      );
  });

  it('ship the OpenAPI document beside the public function, which carries no endpoint schema but its own and no JSON Schema generator', () => {
    for (const b of functionBundles())
      expect(b.sideFiles.map((f) => f.name).includes(path.basename(OPENAPI_SIDE_FILE)), b.name).toBe(
        b.name === 'public',
      );
    const pub = bundles.find((b) => b.name === 'public')!;
    expect(carries(pub, /shared\/schemas\/(account|intelligence|growth|jobs|moderation|storage)\.ts$/)).toBe(false);
    expect(carries(pub, /shared\/http\/openapi\.ts$|zod\/v4\/core\/(to-json-schema|json-schema)/)).toBe(false);
  });

  it('build without esbuild warnings (import.meta.dirname is defined for the CommonJS output)', () => {
    for (const b of bundles) expect(b.warnings, b.name).toEqual([]);
  });

  it('carry none of the disposable-domain list: only the worker gets it, as a side file beside its bundle', () => {
    const packageList = createRequire(import.meta.url)('disposable-email-domains') as string[];
    const samples = [0.25, 0.5, 0.75].map((at) => packageList[Math.floor(packageList.length * at)]);
    for (const b of functionBundles()) {
      const worker = b.name === 'worker';
      expect(carries(b, /disposableDomains\.(data\.ts|br)$/), b.name).toBe(false);
      expect(carries(b, /disposable-email-domains\/index\.json$/), b.name).toBe(false);
      // The worker's bundle keeps the package's small wildcard list (6 KB); the 120,000 domains are not in it.
      expect(carries(b, /disposable-email-domains\//), b.name).toBe(worker);
      const code = readFileSync(b.file, 'utf8');
      for (const domain of samples) expect(code.includes(domain), `${b.name} holds ${domain}`).toBe(false);
      // Side files as the stack ships them: the list beside the worker alone.
      expect(b.sideFiles.map((f) => f.name).includes(path.basename(DISPOSABLE_DOMAINS_SIDE_FILE)), b.name).toBe(
        b.name === 'worker',
      );
    }
  });

  it('carry none of the phishing list but the refresh function, which falls back to the package copy; moderation reads it from the table', () => {
    const packageList = createRequire(import.meta.url)('eth-phishing-detect/src/config.json') as {
      blacklist: string[];
    };
    const samples = [0.25, 0.5, 0.75].map((at) => packageList.blacklist[Math.floor(packageList.blacklist.length * at)]);
    for (const b of functionBundles()) {
      const refresh = b.name === 'phishing-refresh';
      expect(carries(b, /eth-phishing-detect\//), b.name).toBe(refresh);
      const code = readFileSync(b.file, 'utf8');
      for (const domain of samples) expect(code.includes(domain), `${b.name} holds ${domain}`).toBe(refresh);
    }
  });

  it('carry the SQS, EventBridge and Stripe clients exactly when the catalogue says the function uses them', () => {
    for (const b of functionBundles()) {
      const needs = needsOfEntry(b.name);
      expect(carries(b, /@aws-sdk\/client-sqs\//), `${b.name} SQS`).toBe(needs.queue);
      expect(carries(b, /@aws-sdk\/client-eventbridge\//), `${b.name} EventBridge`).toBe(needs.events);
      // The MCP function runs only the account routes that read (functions/account/reads.ts): no checkout, no Stripe.
      expect(carries(b, /node_modules\/stripe\//), `${b.name} Stripe`).toBe(needs.stripe);
    }
  });

  it('carry the platform registry (the moderation code of every platform) only where moderation work is done', () => {
    // The registry (through the platform port and credentials) brings every platform folder: only the code that moderates imports them.
    const moderating = ['moderation', 'worker', 'renewals', 'captchas', 'mcp'];
    // The webhook sender renders `community` events through communityReads.ts and installLinks.ts, not the registry.
    for (const b of functionBundles())
      expect(carries(b, /shared\/platforms\/[a-z]+\/platform\.ts$/), b.name).toBe(moderating.includes(b.name));
  });

  it('carry no metrics library: the business metrics write their EMF line themselves', () => {
    for (const b of functionBundles())
      expect(carries(b, /node_modules\/@aws-lambda-powertools\/metrics\//), b.name).toBe(false);
  });

  it('the hello-world only sends a DynamoDB GetItem: no zod, no other AWS client, nothing of the application', () => {
    const hello = bundles.find((b) => b.name === HELLO_WORLD)!;
    expect(carries(hello, /@aws-sdk\/client-dynamodb\//)).toBe(true);
    expect(carries(hello, /zod|@aws-sdk\/client-(sqs|eventbridge)|shared\/|functions\//)).toBe(false);
  });

  it('are byte for byte what the stack deploys: NodejsFunction with the shared options builds the same index.js', () => {
    const app = new App({ outdir: path.join(path.dirname(bundles[0].file), '..', 'cdk.out') });
    new AppFunction(new Stack(app, 'BundlingCheck'), 'Public', {
      folder: 'public',
      description: 'bundling check',
      environment: {},
    });
    const outdir = app.synth().directory;
    const [asset] = readdirSync(outdir).filter((entry) => entry.startsWith('asset.'));
    const deployed = readFileSync(path.join(outdir, asset, 'index.js'), 'utf8');
    const ours = readFileSync(bundles.find((b) => b.name === 'public')!.file, 'utf8');
    expect(ours).toBe(deployed);
  }, 120_000);
});

describe('the disposable-domain check in a bundle', () => {
  // The verification module bundled with the stack's options and its side files copied by the stack's
  // afterBundling commands, then run in a fresh Node process from another folder, as Lambda runs it.
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'outreach-disposable-'));
    const outfile = path.join(dir, 'task', 'index.js');
    const options = stackEsbuildOptions('', outfile);
    const result = await build({
      ...options,
      entryPoints: undefined,
      stdin: {
        contents: "export { isDisposableDomain } from '#shared/domain/jobs/disposableDomains';",
        resolveDir: PROJECT_ROOT,
        loader: 'ts',
        sourcefile: 'probe.ts',
      },
      absWorkingDir: PROJECT_ROOT,
    });
    expect(result.warnings).toEqual([]);
    const commands = sideFileHooks(FUNCTIONS.worker.sideFiles!).afterBundling(PROJECT_ROOT, path.dirname(outfile));
    execFileSync('/bin/sh', ['-c', commands.join(' && ')], { cwd: PROJECT_ROOT });
    // The same bundle without its side file.
    mkdirSync(path.join(dir, 'bare'));
    copyFileSync(outfile, path.join(dir, 'bare', 'index.js'));
  }, 60_000);
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  const check = (folder: string, domains: string[]) =>
    spawnSync(
      process.execPath,
      [
        '-e',
        `const m=require(${JSON.stringify(path.join(dir, folder, 'index.js'))});Promise.all(${JSON.stringify(domains)}.map((d)=>m.isDisposableDomain(d))).then((r)=>console.log(JSON.stringify(r)))`,
      ],
      {
        cwd: tmpdir(),
        env: { PATH: process.env.PATH ?? '', LAMBDA_TASK_ROOT: path.join(dir, folder) },
        encoding: 'utf8',
      },
    );

  it('reads the list from beside the bundle: listed domains and wildcard subdomains are disposable, others not', () => {
    const run = check('task', ['mailinator.com', 'anything.33m.co', 'orbit.io']);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([true, true, false]);
  });

  it('fails loudly when the side file is missing, rather than calling every domain clean', () => {
    const run = check('bare', ['mailinator.com']);
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `The disposable-domain list ${path.join(dir, 'bare', path.basename(DISPOSABLE_DOMAINS_SIDE_FILE))} is missing`,
    );
  });
});
