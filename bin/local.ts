/** `npm start`: the whole service on this machine. `npm start -- --fresh` starts from an empty database. */
import { resolve } from 'node:path';
import { startLocalRuntime } from './local/runtime';

const fresh = process.argv.includes('--fresh');
const port = Number(process.env.PORT ?? 3000);

const runtime = await startLocalRuntime({
  port,
  fresh,
  dataDir: resolve(process.cwd(), '.data', 'dynamodb'),
  renewalsEverySeconds: Number(process.env.RENEWALS_INTERVAL_SECONDS ?? 300),
});

console.log(`API: ${runtime.baseUrl}`);
console.log(`Pro demo key: ${runtime.proKey}`);
console.log(`Developer demo key: ${runtime.developerKey}`);

// Ctrl-C: the DynamoDB Local launcher stops Java and exits (bin/local/dynamo.ts).
void runtime;
