import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { readGuidePage, shellBlocks } from '#test/support/guide';
import { PROJECT_ROOT } from '#infra/projectRoot';

/*
 * The guide's outbound-webhook block (docs/guide/11-webhooks.md) on a busy machine: its receiver (a node process started in the
 * background) takes seconds to listen. The block must wait for it before it creates the job whose
 * event it shows, so the first delivery reaches the receiver rather than failing and waiting for a retry.
 * A node shim that starts the receiver 3 s late stands in for the busy machine.
 */
const api = await startTestApi();
const block = shellBlocks(readGuidePage('11-webhooks.md'))[0];

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

it('starts its receiver before the job: the first delivery is the one the receiver verifies', {
  timeout: 90_000,
}, async () => {
  const { key } = await api.newUser({ tier: 'pro', credits: 10_000 });
  const port = await freePort();
  const shims = mkdtempSync(path.join(tmpdir(), 'slow-node-'));
  // Only the receiver (the one `node --input-type=module`) is slow to start; json() stays quick.
  writeFileSync(
    path.join(shims, 'node'),
    `#!/bin/sh\ncase "$*" in *--input-type=module*) sleep 3;; esac\nexec ${process.execPath} "$@"\n`,
  );
  chmodSync(path.join(shims, 'node'), 0o755);
  const script = [
    'set -eu',
    `export API=${api.baseUrl}`,
    `H="Authorization: Bearer ${key}"`,
    `json() { node -pe "JSON.parse(require('fs').readFileSync(0)).$1"; }`,
    'T=$(mktemp -d)',
    block.replaceAll('127.0.0.1:4000', `127.0.0.1:${port}`),
  ].join('\n');
  const { stdout } = await promisify(execFile)('bash', ['-c', script], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PATH: `${shims}:${process.env.PATH}`, RECEIVER_PORT: String(port) },
    timeout: 80_000,
  });
  expect(stdout).toMatch(/verified [0-9a-f-]{36} job\.completed completed/);
  // The listing printed after the pause: one delivery, succeeded at its first attempt.
  const listing = JSON.parse(/\{"items":.*?"next_cursor":[^}]*\}/.exec(stdout)![0]);
  expect(listing.items).toHaveLength(1);
  expect(listing.items[0]).toMatchObject({ status: 'succeeded', attempts: 1, last_status_code: 204 });
});
