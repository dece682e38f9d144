import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

// `npm install` compiles the DynamoDB Local launcher, so a first start begins Java at once.
describe('the install step', () => {
  it('package.json prepare compiles the launcher, and the step succeeds', () => {
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts.prepare).toBe('node bin/prepare.mjs');
    const run = spawnSync('npm', ['run', '--silent', 'prepare'], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const cache = join(root, 'node_modules', '.cache', 'loopback-dynamodb-local');
    const builds = readdirSync(cache).filter((name) => existsSync(join(cache, name, 'LoopbackDynamoDBLocal.class')));
    expect(builds.length).toBeGreaterThan(0);
  });
});
