import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackEsbuildOptions } from '#infra/bundling';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { sourceMappedStack } from '#shared/observability/sourceMappedStack';

// The functions run without --enable-source-maps; the logger maps the stacks it writes from the map
// shipped beside the bundle. Checked on a bundle built with the stack's options, run as Lambda runs it.
const FIXTURE = 'test/observability/fixtures/logsAnError.ts';
let folder: string;
let bundle: string;
beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'mapped-stack-'));
  bundle = path.join(folder, 'index.js');
  await build({ ...stackEsbuildOptions(path.join(PROJECT_ROOT, FIXTURE), bundle), absWorkingDir: PROJECT_ROOT });
}, 60_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What `code` writes (stdout and stderr) with the bundle required as `m`, in a plain Node process (no source-map flag, no tsx). */
const runPlain = (code: string) => {
  const run = spawnSync(process.execPath, ['-e', `const m=require(${JSON.stringify(bundle)});${code}`], {
    env: { PATH: process.env.PATH ?? '', POWERTOOLS_LOG_LEVEL: 'INFO', AWS_REGION: 'us-east-1' },
    encoding: 'utf8',
  });
  return run.stdout + run.stderr;
};

describe('error stacks in the logs of a bundle run without source maps', () => {
  it('name the source file, line and column, for the error and its cause', () => {
    const line = JSON.parse(runPlain('m.failAndLog()').trim()) as {
      error: { stack: string; location: string; cause: { stack: string } };
    };
    const madeAt = `${FIXTURE}:5:15`;
    expect(line.error.stack.split('\n')[1]).toMatch(new RegExp(`\\(\\S*${madeAt}\\)$`));
    expect(line.error.location.endsWith(`${FIXTURE}:5`)).toBe(true);
    expect(line.error.cause.stack.split('\n')[1]).toContain(`${FIXTURE}:5:`);
    expect(line.error.stack).not.toContain('index.js:');
  });

  it('map a stack V8 wrote in bundle terms, leaving its message and the frames outside the bundle as they are', () => {
    const raw = runPlain("process.stdout.write(m.makeError('boom\\n    at fake (/x/index.js:1:2)').stack)");
    const [message, fake, made, ...rest] = raw.split('\n');
    expect(made).toContain(`(${bundle}:`);
    const mapped = sourceMappedStack(raw).split('\n');
    expect(mapped[2].startsWith(made.slice(0, made.lastIndexOf('(') + 1))).toBe(true);
    expect(mapped[2]).toMatch(new RegExp(`\\(\\S*${FIXTURE}:10:54\\)$`));
    expect(mapped.slice(0, 2)).toEqual([message, fake]);
    expect(mapped.slice(3)).toEqual(rest);
  });

  it('leave frames alone whose file has no map, or whose location does not parse', () => {
    const stack = [
      'Error: y',
      '    at f (/nowhere/index.js:1:2)',
      '    at g (/nowhere/index.js:x:2)',
      '    at h (index.js)',
      '    at ',
      `    at ${'('.repeat(10_000)}`,
    ].join('\n');
    expect(sourceMappedStack(stack)).toBe(stack);
  });
});
