import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { filesUnder } from '#test/support/projectFiles';

/**
 * A cast through `unknown` tells the compiler to stop checking. Outside the tests there are at most
 * this many, each where the types cannot say what the code knows (a library's union, a loose schema
 * against a closed type); lower the ceiling as they go, never raise it.
 */
const CEILING = 3;

describe('casts through unknown outside the tests', () => {
  it(`number at most ${CEILING}`, () => {
    const casts = ['shared', 'functions', 'infra', 'bin']
      .flatMap((dir) => filesUnder(dir))
      .flatMap((file) =>
        readFileSync(path.join(PROJECT_ROOT, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (line.includes('as unknown as') ? [`${file}:${i + 1}`] : [])),
      );
    // Found at all: a pattern that stopped matching would pass everything.
    expect(casts.length).toBeGreaterThan(0);
    expect(casts.length, casts.join('\n')).toBeLessThanOrEqual(CEILING);
  });
});
