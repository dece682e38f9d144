import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { shellBlocks } from '#test/support/guide';
import { PROJECT_ROOT } from '#infra/projectRoot';

/*
 * The README's taste, the one curl block a newcomer runs first, as printed: only the API address and the pro key
 * it asks for are filled in. (Its lines are also lines of the guide's walkthrough: test/layout/docs.test.ts.)
 */
const api = await startTestApi();
const taste = shellBlocks(readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8')).filter((b) => b.includes('$API'));

describe("the README's taste", () => {
  it('runs alone as written: the account, then a VC shortlist resolved, quoted, executed and read', {
    timeout: 60_000,
  }, async () => {
    expect(taste).toHaveLength(1);
    const { key } = await api.newUser({ tier: 'pro', credits: 1_000 });
    const block = taste[0]
      .replace(/^export API=http:\/\/localhost:3000\/api\/v1$/m, `export API=${api.baseUrl}`)
      .replace(/^export KEY=oik_\.\.\.(.*)$/m, `export KEY=${key}$1`);
    expect(block).not.toContain('oik_...');
    const { stdout } = await promisify(execFile)('bash', ['-c', `set -eu\n${block}`], {
      cwd: PROJECT_ROOT,
      timeout: 50_000,
    });
    expect(stdout).not.toContain('"error"');
    expect(stdout).toContain('"permanent_credit_balance":1000');
    // The last answer is the stored result, with its records.
    expect(stdout).toMatch(/"records":\[\{"record_id":/);
  });
});
