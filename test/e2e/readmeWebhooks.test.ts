import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApi } from '#test/support/api';
import { readGuidePage, shellBlocks } from '#test/support/guide';
import { PROJECT_ROOT } from '#infra/projectRoot';

const run = promisify(execFile);
const api = await startTestApi();

/** The guide's webhook walkthrough (docs/guide/11-webhooks.md), exactly as printed. */
const block = shellBlocks(readGuidePage('11-webhooks.md'))[0];

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

// In the project tree, so the receiver's `import 'standardwebhooks'` resolves as it does for a reader.
const workDir = mkdtempSync(path.join(PROJECT_ROOT, '.readme-webhooks-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("the README's webhook receiver", () => {
  it('runs as written: the receiver verifies the signed job.completed, the log lists it, a retry is accepted', async () => {
    const { key } = await api.newUser({ tier: 'pro', credits: 1000 });
    // The one change: the receiver's port 4000 may be taken on a shared machine.
    const port = await freePort();
    const script = [
      `export API=${api.baseUrl}`,
      `export KEY=${key}`,
      `json() { node -pe "JSON.parse(require('fs').readFileSync(0)).$1"; }`,
      'H="Authorization: Bearer $KEY"',
      `T=${workDir}`,
      block.replaceAll('4000', String(port)),
    ].join('\n');
    const { stdout } = await run('bash', ['-c', script], {
      cwd: workDir,
      env: { ...process.env, RECEIVER_PORT: String(port) },
      timeout: 60_000,
    });
    expect(stdout).toMatch(/verified [0-9a-f-]{36} job\.completed completed/);
    expect(stdout).toMatch(/"status":"succeeded"/);
    expect(stdout).toMatch(/"secret":"whsec_/);
    expect(stdout).not.toMatch(/rejected/);
    const deliveries = (await api.call('GET', '/webhooks/deliveries', { key })).body;
    expect(deliveries.items).toHaveLength(1);
    expect(deliveries.items[0]).toMatchObject({ event_type: 'job.completed', attempts: 2 });
  });

  it('rejects a request whose signature does not match', async () => {
    const port = await freePort();
    const opening = "cat > $T/receiver.mjs <<'EOF'\n";
    const receiverSource = block.slice(block.indexOf(opening) + opening.length, block.indexOf('\nEOF\n'));
    const file = path.join(workDir, 'check.mjs');
    (await import('node:fs')).writeFileSync(file, receiverSource);
    const child = execFile('node', [file], {
      env: { ...process.env, RECEIVER_PORT: String(port), WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    });
    let out = '';
    child.stdout!.on('data', (c) => (out += c));
    try {
      let status = 0;
      // The receiver is a fresh Node process: on a loaded machine it can take seconds to listen.
      for (let i = 0; i < 200 && !status; i++) {
        status = await fetch(`http://127.0.0.1:${port}/hooks`, {
          method: 'POST',
          headers: {
            'webhook-id': 'msg_1',
            'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
            'webhook-signature': 'v1,AAAA',
          },
          body: '{}',
        }).then(
          (r) => r.status,
          () => 0,
        );
        if (!status) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(400);
      // Its log line may reach our pipe a moment after its answer.
      for (let i = 0; i < 50 && !out.includes('rejected'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(out).toContain('rejected');
    } finally {
      child.kill();
    }
  });
});
