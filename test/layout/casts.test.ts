import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/projectRoot';

/**
 * A cast through `unknown` tells the compiler to stop checking. Outside the tests there are at most
 * this many, each where the types cannot say what the code knows (a library's union, a loose schema
 * against a closed type); lower the ceiling as they go, never raise it.
 */
const CEILING = 4;

const sources = (dir: string): string[] =>
  readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(rel);
    return entry.name.endsWith('.ts') ? [rel] : [];
  });

describe('casts through unknown outside the tests', () => {
  it(`number at most ${CEILING}`, () => {
    const casts = ['shared', 'functions', 'infra', 'bin'].flatMap(sources).flatMap((file) =>
      readFileSync(path.join(PROJECT_ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.includes('as unknown as') ? [`${file}:${i + 1}`] : [])),
    );
    // Found at all: a pattern that stopped matching would pass everything.
    expect(casts.length).toBeGreaterThan(0);
    expect(casts.length, casts.join('\n')).toBeLessThanOrEqual(CEILING);
  });
});
