import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { cacheSources, cachedSeed, preparedSeed } from '#bin/local/seedCache';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { imports, target } from '#test/support/importGraph';
import { prepareSeed, type PreparedSeed } from '#bin/curated/seed';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'outreach-seed-cache-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/*
 * `npm install` prepares the first start's dataset once (bin/prepare.mjs), so the first start reads
 * it instead of generating it while the JVM starts.
 */
describe('the prepared dataset cache', () => {
  it('is generated once, then read back as the same items, and replaces an older version of the same scale', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'scale-0.01-olderversion.bin'), 'an older layout');
    writeFileSync(join(dir, 'scale-1-fullsize.bin'), 'the full dataset');
    expect(cachedSeed(0.01, dir)).toBeUndefined();
    const first = preparedSeed(0.01, dir);
    expect(first.generated).toBe(true);
    expect(existsSync(join(dir, 'scale-0.01-olderversion.bin'))).toBe(false);
    expect(existsSync(join(dir, 'scale-1-fullsize.bin'))).toBe(true);
    const second = preparedSeed(0.01, dir);
    expect(second.generated).toBe(false);
    // The same items but for the shards' versions, which each preparation draws anew.
    const unversioned = ({ items, marker }: PreparedSeed) => ({
      marker,
      items: items.map(({ version, ...item }) => item),
    });
    expect(unversioned(second.prepared)).toEqual(unversioned(prepareSeed({ scale: 0.01 })));
    expect(readdirSync(dir).filter((name) => name.startsWith('scale-0.01-'))).toHaveLength(1);
  });

  it('is keyed by every source file the seed reaches (a change to the generator or the layout makes a new one)', () => {
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const { specifier } of imports(readFileSync(join(PROJECT_ROOT, file), 'utf8'))) {
        const to = target(file, specifier);
        if (to) visit(to);
      }
    };
    visit('bin/curated/seed.ts');
    expect(reached).toContain('bin/curated/generator.ts');
    expect(reached).toContain('shared/store/keys.ts');
    const hashed = new Set(cacheSources());
    expect([...reached].filter((file) => !hashed.has(file))).toEqual([]);
  });

  it('an unreadable file is generated again', () => {
    const dir = freshDir();
    preparedSeed(0.01, dir);
    const [file] = readdirSync(dir).filter((name) => name.startsWith('scale-0.01-'));
    writeFileSync(join(dir, file), 'not a serialized dataset');
    expect(preparedSeed(0.01, dir).generated).toBe(true);
  });
});
