import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startLocalRuntime } from '#bin/local/runtime';
import { startStandIns } from '#bin/standIns/session';
import { uuidv7 } from '#shared/ids';
import { contractViolation } from '#test/support/contract';
import { guideShellBlocks } from '#test/support/guide';
import { PROJECT_ROOT } from '#infra/projectRoot';

/*
 * The guide's walkthrough (docs/guide, the README's tutorial), every shell block of its pages in their order,
 * copy-pasted in order into one shell against a server started as `npm start -- --stand-ins` starts it.
 * What a reader fills in (the API address and the two printed keys) is filled in; a block that needs an
 * operator's real account (placeholders like `=...` or `<ApiBaseUrl>`) is left out. The server's own
 * output during the run is read for stack traces. The shell stops at a failing command or an unset
 * variable, so every variable a line uses is set by a line before it.
 */
const run = promisify(execFile);

const blocks = guideShellBlocks();

const fillIn = (block: string, values: { api: string; key: string; devKey: string }) =>
  block
    .replace(/^export API=http:\/\/localhost:3000\/api\/v1$/m, `export API=${values.api}`)
    .replace(/^export KEY=oik_\.\.\.(.*)$/m, `export KEY=${values.key}$1`)
    .replace(/^export DEV_KEY=oik_\.\.\.(.*)$/m, `export DEV_KEY=${values.devKey}$1`);
const needsAnOperatorAccount = (block: string) => /=\.\.\.|<ApiBaseUrl>|<TableName>/.test(block);

/** The JSON objects in `text` that begin with `prefix` (curl prints answers without a newline, so they may share a line). */
function jsonObjectsStartingWith(text: string, prefix: string): string[] {
  const found: string[] = [];
  for (let start = text.indexOf(prefix); start >= 0; start = text.indexOf(prefix, start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        found.push(text.slice(start, i + 1));
        break;
      }
    }
  }
  return found;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

// The server's output (it runs in this process), from start to the end of the walkthrough.
const serverOutput: string[] = [];
const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
const tap = (original: typeof process.stdout.write) =>
  ((chunk: unknown, ...rest: unknown[]) => {
    serverOutput.push(String(chunk));
    return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
process.stdout.write = tap(writes.out);
process.stderr.write = tap(writes.err);

const sessionDir = mkdtempSync(path.join(tmpdir(), 'outreach-walkthrough-'));
process.env.STAND_IN_SESSION = path.join(sessionDir, 'stand-ins.json');
const standInLines: string[] = [];
const standIns = await startStandIns((line) => standInLines.push(line));
const tableName = `outreach-walkthrough-${uuidv7()}`;
const runtime = await startLocalRuntime({
  port: 0,
  dataDir: '',
  fresh: false,
  renewalsEverySeconds: 3600,
  dynamo: { endpoint: inject('dynamoEndpoint'), tableName, datasetScale: 0.05 },
});
standIns.announce(runtime.baseUrl);

afterAll(async () => {
  process.stdout.write = writes.out;
  process.stderr.write = writes.err;
  await runtime.stop();
  await standIns.stop();
  rmSync(sessionDir, { recursive: true, force: true });
  delete process.env.STAND_IN_SESSION;
});

describe("the README's walkthrough", () => {
  it('runs in order as written: every answer is the one its line describes, no file lands in the project, the server logs no stack', {
    timeout: 600_000,
  }, async () => {
    await runtime.datasetLoaded;
    const skipped = blocks.filter(needsAnOperatorAccount);
    const filled = blocks.map((b) =>
      fillIn(b, { api: runtime.baseUrl, key: runtime.proKey!, devKey: runtime.developerKey! }),
    );
    expect(filled[0]).not.toContain('oik_...');
    // The operator's Telegram and Discord registration: real bots only.
    expect(skipped.map((b) => b.split(' ')[0])).toEqual(['TELEGRAM_BOT_TOKEN=...', 'DISCORD_APPLICATION_ID=...']);
    // The receiver's port 4000 may be taken on a shared machine.
    const port = await freePort();
    const script = ['set -eu', ...filled.filter((b) => !needsAnOperatorAccount(b))]
      .join('\n')
      .replaceAll('127.0.0.1:4000', `127.0.0.1:${port}`);
    const before = readdirSync(PROJECT_ROOT).filter((name) => !name.startsWith('.'));

    const { stdout } = await run('bash', ['-c', script], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        RECEIVER_PORT: String(port),
        TABLE_NAME: tableName,
        DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      },
      timeout: 540_000,
      maxBuffer: 64 * 1024 * 1024,
    });

    // The only refusal is the one the walkthrough announces: cancelling a job that has finished. (The
    // rotated key is the one every line after the rotation sends: a 401 would show here.)
    const codes = [...stdout.matchAll(/"error":\{"code":"(\w+)"/g)].map((m) => m[1]);
    expect(codes).toEqual(['invalid_state']);
    expect(stdout).toContain('"email":"demo-pro@example.com"');
    // The job stream shows the unfinished job as progress before it completes (on a quiet machine the job may
    // finish before the first poll sees it running, so the one progress event may still say pending).
    expect(stdout).toMatch(/event: progress\ndata: .*"status":"(pending|running)"[\s\S]*event: complete/);
    // The renewals sweep renews the community just created.
    expect(stdout).toMatch(/Sweep at .*: [1-9]\d* due, [1-9]\d* renewed/);
    // The stand-in moderation: deleted, muted, the audit entry delivered, the undo delivered.
    expect(stdout).toMatch(/"action":"mute","rule":"scam_phrase".*"delivery":\{"status":"delivered","error":null\}/);
    expect(stdout).toMatch(/"action":"mute","delivery":"delivered","error":null/);
    // Every moderation status answer printed, the Telegram one with its delivery and platform, matches the OpenAPI document.
    const statuses = jsonObjectsStartingWith(stdout, '{"community_id"').filter((text) =>
      Object.hasOwn(JSON.parse(text), 'audit_logs'),
    );
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    expect(statuses.some((line) => JSON.parse(line).platform?.configured === true)).toBe(true);
    for (const line of statuses)
      expect(
        contractViolation('GET', '/api/v1/integrations/moderation/status', 200, 'application/json', line),
      ).toBeUndefined();
    const telegramCalls = standInLines
      .filter((l) => l.startsWith('telegram stand-in received'))
      .map((l) => l.split(' ')[3]);
    expect(telegramCalls).toEqual([
      'getChatMember',
      'sendMessage',
      'deleteMessage',
      'restrictChatMember',
      'restrictChatMember',
    ]);
    // The polled platforms: activated through the stand-ins as the README shows, the scam removed on
    // Reddit and hidden on X.
    const received = (platform: string) =>
      standInLines
        .filter((l) => l.startsWith(`${platform} stand-in received`))
        .map((l) => l.split(' ').slice(3, 5).join(' '));
    expect(received('reddit')).toEqual(
      expect.arrayContaining([
        'POST /r/acme_sample/api/accept_moderator_invite',
        'POST /api/read_message',
        'POST /api/remove',
        'POST /api/mod/conversations',
      ]),
    );
    expect(received('reddit').filter((c) => c === 'POST /api/remove')).toHaveLength(1);
    expect(received('x').filter((c) => c.startsWith('PUT /2/tweets/'))).toHaveLength(1);
    expect(received('x')).toEqual(
      expect.arrayContaining(['POST /2/oauth2/token', 'GET /2/users/me', 'POST /2/users/1700000000000000001/muting']),
    );
    expect(stdout).toContain('@acme_sample is now moderated by &#34;Acme on X&#34;');
    // The Hunter stand-in enriched the company the curated data does not know, as the README shows.
    expect(stdout).toContain('{ hunter: 2 }');
    expect(received('hunter')).toEqual(
      expect.arrayContaining(['GET /companies/find', 'GET /domain-search', 'GET /email-verifier']),
    );
    // The webhook receiver verified the signed event.
    expect(stdout).toMatch(/verified [0-9a-f-]{36} job\.completed completed/);

    expect(readdirSync(PROJECT_ROOT).filter((name) => !name.startsWith('.'))).toEqual(before);
    const log = serverOutput.join('');
    expect(log).not.toMatch(/(^|\\n|\n)\s+at .+:\d+:\d+/);
    expect(log).not.toMatch(/"level":"ERROR"/);
  });
});
