import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { filesUnder } from '#test/support/projectFiles';

/**
 * A community's mode becomes "recorded, never sent" in one place (communityRules.ts `observes`), used where
 * a decision is scheduled (platformCallRunner.ts scheduleDecision) and before each try of its delivery: no
 * ingest path reads the mode itself, so a new platform cannot send what an observing community decided.
 */
const HOME = 'shared/domain/moderation/communityRules.ts';
const READS_MODE = /\bmode\s*[!=]==?\s*'observe'|'observe'\s*[!=]==?\s*[\w.]*\bmode\b/;

describe('observe mode', () => {
  it(`is read from a community's rules only in ${HOME}`, () => {
    const files = ['shared', 'functions'].flatMap((dir) => filesUnder(dir));
    const reads = files.flatMap((file) =>
      readFileSync(path.join(PROJECT_ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (READS_MODE.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    expect(reads.filter((where) => !where.startsWith(`${HOME}:`))).toEqual([]);
    // Found at all: a pattern that stopped matching would pass everything.
    expect(reads.length).toBeGreaterThan(0);
  });
});
