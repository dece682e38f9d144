import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { filesUnder } from '#test/support/projectFiles';

/**
 * Configuration is read in one place: shared/config/config.ts parses the environment once and hands
 * typed settings to what needs them. The domain and the store read none of it themselves, and no
 * other module of shared/ or functions/ reads process.env (bin/ and test/ set it for the local runtime).
 */
const CONFIG_MODULE = 'shared/config/config.ts';

/** `process.env`, `process['env']`, `process?.env` and `const { env } = process`, comments included (a commented read is still a pointer to the wrong place). */
const READS_ENV =
  /\bprocess\s*(?:\?\.|\.)\s*env\b|\bprocess\s*\[\s*['"`]env['"`]\s*\]|\{[^}]*\benv\b[^}]*\}\s*=\s*(?:globalThis\.)?process\b/;

const envReaders = (files: Record<string, string>): string[] =>
  Object.entries(files)
    .filter(([, source]) => READS_ENV.test(source))
    .map(([file]) => file);

const read = (files: string[]) =>
  Object.fromEntries(files.map((f) => [f, readFileSync(path.join(PROJECT_ROOT, f), 'utf8')]));

describe('configuration in one place', () => {
  it('no module of shared/domain or shared/store reads process.env', () => {
    const files = [...filesUnder('shared/domain'), ...filesUnder('shared/store')];
    expect(files.length).toBeGreaterThan(100);
    expect(envReaders(read(files))).toEqual([]);
  });

  it('no module of shared/ or functions/ but the config module reads process.env', () => {
    const files = [...filesUnder('shared'), ...filesUnder('functions')];
    expect(envReaders(read(files))).toEqual([CONFIG_MODULE]);
  });

  it('catches each way of reading it', () => {
    expect(
      envReaders({
        'a.ts': 'const x = process.env.TABLE_NAME;',
        'b.ts': "const y = process['env'].X;",
        'c.ts': 'const { env } = process;',
        'd.ts': 'const { env: e, argv } = process;',
        'e.ts': 'const z = process?.env?.X;',
        'f.ts': 'const fine = config().tableName; // environment',
        'g.ts': 'const alsoFine = processEnvironment();',
      }),
    ).toEqual(['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts']);
  });
});
