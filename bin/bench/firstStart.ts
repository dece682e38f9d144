import { required } from './harness';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { freePort } from '#bin/local/dynamo';
import { preparedSeed } from '#bin/local/seedCache';
import type { BenchSuite } from './harness';

const LOCAL_ENTRY = resolve(import.meta.dirname, '..', 'local.ts');
const DEADLINE_MS = 600_000;
// The child runs in an empty folder of its own, so tsx is named by absolute URL rather than resolved from there.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Polls until `ready` holds, returning the milliseconds since `since`. */
async function until(since: number, ready: () => Promise<boolean>, alive: () => boolean): Promise<number> {
  while (Date.now() - since < DEADLINE_MS) {
    if (!alive()) throw new Error('The local server exited before it was ready');
    if (await ready().catch(() => false)) return Date.now() - since;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('The local server did not get ready within 10 minutes');
}

/** One `npm start` as a newcomer runs it, in a folder of its own: seconds to health, to the keys, to a curated answer. */
async function timedStart(
  dataDir: string,
  print: (line: string) => void,
  label: string,
): Promise<{ keys: number; curated: number }> {
  const port = await freePort();
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', TSX, LOCAL_ENTRY], {
    cwd: dataDir,
    env: {
      ...process.env,
      PORT: String(port),
      DEMO_PRO_API_KEY: '',
      DEMO_DEVELOPER_API_KEY: '',
      LOCAL_START_TIMINGS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  let running = true;
  child.once('exit', (code) => {
    running = false;
    if (code !== null && code !== 0) console.error(`local server exited with ${code}: ${stderr}`);
  });
  const alive = () => running;
  try {
    const api = `http://127.0.0.1:${port}/api/v1`;
    const health = await until(started, async () => (await fetch(`${api}/health`)).ok, alive);
    const keys = await until(started, async () => /Developer demo key: \S+/.test(stdout), alive);
    const proKey = required(/Pro demo key: (\S+)/.exec(stdout), 'the pro demo key in the output')[1];
    const resolveOk = async () =>
      (
        await fetch(`${api}/intelligence/resolve`, {
          method: 'POST',
          headers: { authorization: `Bearer ${proKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ package_id: 'vc-shortlist-v1', request_text: '10 seed-stage DeFi VCs' }),
        })
      ).status === 200;
    const curated = await until(started, resolveOk, alive);
    // The phases the server wrote (bin/local/startTimings.ts), each as seconds since its process began.
    const phases = [...stderr.matchAll(/^start phase: (.+) at ([\d.]+) s$/gm)].map((m) => `${m[1]} ${m[2]} s`);
    print(
      `${label.padEnd(32)} health ${(health / 1000).toFixed(1).padStart(5)} s  keys ${(keys / 1000).toFixed(1).padStart(5)} s  curated resolve ${(curated / 1000).toFixed(1).padStart(5)} s  curated/keys ${(curated / keys).toFixed(2)}`,
    );
    print(`  phases (server process): ${phases.join(', ')}`);
    return { keys, curated };
  } finally {
    if (running) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
    }
  }
}

/**
 * First start (empty database: loads the curated dataset) and a restart on the same data, each as
 * seconds to the keys and to the first curated answer and their ratio. Goals on a quiet 2-core
 * machine: the keys within 6 s, the first curated answer within 1.5 times the wait for the keys. On
 * a loaded machine the seconds grow; the ratio says more.
 */
export const firstStartBench: BenchSuite = {
  name: 'First start (npm start in an empty folder, then a restart)',
  async run({ print }) {
    // What `npm install` leaves (bin/prepare.mjs): the first start's items prepared for this code.
    const cache = preparedSeed();
    print(`prepared dataset: ${cache.generated ? 'generated now, as npm install would have' : 'in the cache already'}`);
    const folder = mkdtempSync(join(tmpdir(), 'outreach-first-start-'));
    try {
      const first = await timedStart(folder, print, 'first start (empty database)');
      const again = await timedStart(folder, print, 'restart (data kept)');
      print(
        `curated/keys: first start ${(first.curated / first.keys).toFixed(2)}, restart ${(again.curated / again.keys).toFixed(2)} (goal 1.5 at most)`,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
};
