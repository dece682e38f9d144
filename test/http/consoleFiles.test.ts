import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConsole } from '#bin/consoleBuild';
import { consoleFigures, CONSOLE_BUDGET_BYTES } from '#bin/bench/console';
import { PROJECT_ROOT } from '#infra/projectRoot';

describe('the web console files served by the public function', () => {
  it('are what console/ builds today (run `npm run console` after changing it)', async () => {
    for (const [name, text] of Object.entries(await buildConsole())) {
      const stored = readFileSync(join(PROJECT_ROOT, 'functions/public', name), 'utf8');
      expect(stored === text, `functions/public/${name} is out of date: run \`npm run console\``).toBe(true);
    }
  });

  it('stay within the 100 KB gzipped budget', () => {
    expect(consoleFigures().reduce((s, r) => s + r.gzipped, 0)).toBeLessThanOrEqual(CONSOLE_BUDGET_BYTES);
  });
});
