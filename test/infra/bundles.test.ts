import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundles, HELLO_WORLD, type BuiltBundle } from '#bin/bench/bundles';
import { AppFunction } from '#infra/appFunction';
import { FUNCTIONS, type FunctionName } from '#infra/functionCatalog';

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
/** What the functions sharing a bundle's entry file need together (worker and dead-letters share one). */
const needsOfEntry = (name: string) => {
  const folder = (n: string) => FUNCTIONS[n as FunctionName].entry?.folder ?? n;
  const sharing = Object.keys(FUNCTIONS).filter((n) => folder(n) === folder(name)).map((n) => FUNCTIONS[n as FunctionName]);
  return { queue: sharing.some((n) => n.queue || n.webhookQueue), events: sharing.some((n) => n.events), stripe: sharing.some((n) => n.stripe) };
};

describe('function bundles', () => {
  it('are built for every function of the catalogue and the hello-world yardstick', () => {
    expect(bundles.map((b) => b.name).sort()).toEqual([HELLO_WORLD, ...Object.keys(FUNCTIONS)].sort());
    for (const b of bundles) expect(b.bytes, b.name).toBeGreaterThan(0);
  });

  it('carry no zod locale but the default English one (zod is imported as a namespace so the rest is tree-shaken)', () => {
    for (const b of functionBundles()) {
      const locales = inputsOf(b).filter((file) => /zod\/v4\/locales\//.test(file));
      expect(locales.map((file) => path.basename(file)), b.name).toEqual(locales.length ? ['en.js'] : []);
    }
  });

  it('carry the disposable-domain list only in the pipeline worker, whose e-mail verification stage uses it', () => {
    for (const b of functionBundles()) {
      const worker = (FUNCTIONS[b.name as FunctionName].entry?.folder ?? b.name) === 'worker';
      expect(carries(b, /disposableDomains\.data\.ts$/), b.name).toBe(worker);
      expect(carries(b, /disposable-email-domains\//), b.name).toBe(worker);
      // The compact copy replaced the package's 2.4 MB JSON array; only its small wildcard list is bundled.
      expect(carries(b, /disposable-email-domains\/index\.json$/), b.name).toBe(false);
    }
  });

  it('carry the SQS, EventBridge and Stripe clients exactly when the catalogue says the function uses them', () => {
    for (const b of functionBundles()) {
      const needs = needsOfEntry(b.name);
      expect(carries(b, /@aws-sdk\/client-sqs\//), `${b.name} SQS`).toBe(needs.queue);
      expect(carries(b, /@aws-sdk\/client-eventbridge\//), `${b.name} EventBridge`).toBe(needs.events);
      expect(carries(b, /node_modules\/stripe\//), `${b.name} Stripe`).toBe(needs.stripe);
    }
  });

  it('the hello-world only sends a DynamoDB GetItem: no zod, no other AWS client, nothing of the application', () => {
    const hello = bundles.find((b) => b.name === HELLO_WORLD)!;
    expect(carries(hello, /@aws-sdk\/client-dynamodb\//)).toBe(true);
    expect(carries(hello, /zod|@aws-sdk\/client-(sqs|eventbridge)|shared\/|functions\//)).toBe(false);
  });

  it('are byte for byte what the stack deploys: NodejsFunction with the shared options builds the same index.js', () => {
    const app = new App({ outdir: path.join(path.dirname(bundles[0].file), '..', 'cdk.out') });
    new AppFunction(new Stack(app, 'BundlingCheck'), 'Public', { folder: 'public', description: 'bundling check', environment: {} });
    const outdir = app.synth().directory;
    const [asset] = readdirSync(outdir).filter((entry) => entry.startsWith('asset.'));
    const deployed = readFileSync(path.join(outdir, asset, 'index.js'), 'utf8');
    const ours = readFileSync(bundles.find((b) => b.name === 'public')!.file, 'utf8');
    expect(ours).toBe(deployed);
  }, 120_000);
});
