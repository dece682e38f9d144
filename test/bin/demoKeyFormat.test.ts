import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/projectRoot';

/**
 * `npm start` with a demo key that is not one (a typo in DEMO_PRO_API_KEY) says so in one line and
 * exits non-zero before it starts anything: no stack trace, no Java, no database folder.
 */
const tsx = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');

describe.each(['DEMO_PRO_API_KEY', 'DEMO_DEVELOPER_API_KEY'])('npm start with a malformed %s', (variable) => {
  it('prints one clear line and exits non-zero', () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'demo-key-'));
    try {
      const run = spawnSync(tsx, [path.join(PROJECT_ROOT, 'bin', 'local.ts')], {
        cwd,
        env: { ...process.env, [variable]: 'oik_too-short', PORT: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      const output = `${run.stdout}${run.stderr}`.trim();
      expect(run.status, output).not.toBe(0);
      expect(run.status, output).not.toBeNull();
      expect(output.split('\n'), output).toHaveLength(1);
      expect(output).toMatch(new RegExp(`^${variable} must be oik_ followed by 40 URL-safe characters`));
      expect(output).not.toContain('oik_too-short');
      expect(existsSync(path.join(cwd, '.data'))).toBe(false);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
