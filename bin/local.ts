/**
 * `npm start`: the whole service on this machine. `npm start -- --fresh` starts from an empty database;
 * `npm start -- --stand-ins` also runs the platforms' recording stand-ins and points the server at them.
 */
import { resolve } from 'node:path';
import { demoKeyProblem } from './local/demoKeys';
import { beginStart } from './local/earlyStart';
import { startPhase } from './local/startTimings';

// A demo key that cannot be one stops the start before anything runs.
const keyProblem = demoKeyProblem(process.env);
if (keyProblem) {
  console.error(keyProblem);
  process.exit(1);
}

const fresh = process.argv.includes('--fresh');
const port = Number(process.env.PORT ?? 3000);
const dataDir = resolve(process.cwd(), '.data', 'dynamodb');
// Java and the dataset's generation start first, so they run while the server's modules load.
const early = beginStart({ dataDir, fresh });
const { startLocalRuntime } = await import('./local/runtime');
const { startStandIns } = await import('./standIns/session');
startPhase('modules loaded');
const standIns = process.argv.includes('--stand-ins') ? await startStandIns() : undefined;

const runtime = await startLocalRuntime({
  port,
  fresh,
  dataDir,
  early,
  renewalsEverySeconds: Number(process.env.RENEWALS_INTERVAL_SECONDS ?? 300),
});

/** A key rotated over the API survives the restart, but only its hash is stored. */
const shown = (key: string | undefined, variable: string) =>
  key ??
  `(unchanged: rotated since it was last printed, and only its hash is stored; keep using the rotated key, or set ${variable} or start with --fresh)`;

console.log(`API: ${runtime.baseUrl}`);
console.log(`Console: ${runtime.baseUrl}/console (paste a key below)`);
console.log(`Pro demo key: ${shown(runtime.proKey, 'DEMO_PRO_API_KEY')}`);
console.log(`Developer demo key: ${shown(runtime.developerKey, 'DEMO_DEVELOPER_API_KEY')}`);
standIns?.announce(runtime.baseUrl);

// Ctrl-C: the DynamoDB Local launcher stops Java and exits (bin/local/dynamo.ts).
void runtime;
