import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '#shared/ids';
import { startTestApi } from '#test/support/api';
import { findUserIdByEmail } from '#shared/store/usersRepo';
import { getCuratedEntity } from '#shared/store/curatedReads';
import { getPhishingListHead } from '#shared/store/phishingListRepo';
import { inventedList, startPhishingListStandIn } from '#test/support/phishingListStandIn';

const run = promisify(execFile);
const api = await startTestApi();

/** The admin command as an operator runs it, pointed at the test table. */
async function admin(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], {
    env: { ...process.env },
    timeout: 60_000,
  });
}

describe('npm run admin', () => {
  it('create-user prints a working key on its last line; grant-credits adds permanent credits', async () => {
    const email = `ops-${uuidv7()}@example.com`;
    const created = await admin('create-user', '--email', email, '--tier', 'pro', '--credits', '300');
    const key = created.stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^oik_[A-Za-z0-9_-]{40}$/);
    // A command that writes the table says which one.
    expect(created.stderr).toMatch(/^Using the table \S+ at http/m);
    const me = await api.call('GET', '/users/me', { key });
    expect(me.body).toMatchObject({
      email,
      subscription_tier: 'pro',
      subscription_status: 'active',
      permanent_credit_balance: 300,
    });

    await admin('grant-credits', '--email', email, '--credits', '700');
    expect((await api.call('GET', '/subscriptions/status', { key })).body.credits_total).toBe(1000);
  });

  it('fails with a message and a non-zero exit for an unknown e-mail or a bad amount', async () => {
    await expect(admin('grant-credits', '--email', 'nobody@example.com', '--credits', '5')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No account'),
    });
    await expect(admin('grant-credits', '--email', 'nobody@example.com', '--credits', '-5')).rejects.toMatchObject({
      code: 1,
    });
    await expect(admin('no-such-command')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Usage') });
  });

  it('rejects a bad flag before writing anything: no account is created and no key is printed', async () => {
    const email = `ops-${uuidv7()}@example.com`;
    const bad: string[][] = [
      ['create-user', '--email', email, '--credits', '9007199254740993'],
      ['create-user', '--email', email, '--credits', '1e300'],
      ['create-user', '--email', email, '--tier', 'gold'],
      ['create-user', '--email', 'not-an-email'],
      ['grant-credits', '--email', 'also bad', '--credits', '5'],
      ['grant-credits', '--email', email, '--credits', '0'],
      ['renewals', '--at', 'yesterday'],
    ];
    for (const args of bad) {
      const failure = await admin(...args).then(
        () => undefined,
        (err) => err,
      );
      expect(failure, args.join(' ')).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/--(credits|tier|email|at)/),
      });
      expect(failure.stdout.trim(), args.join(' ')).toBe('');
    }
    expect(await findUserIdByEmail(email)).toBeUndefined();
    expect(await findUserIdByEmail('not-an-email')).toBeUndefined();
  });

  it("loads the sample file with the guide's import command as written", async () => {
    const command = readFileSync('docs/guide/02-intelligence.md', 'utf8').match(
      /npm run admin -- (import --file [^\s`]+)/,
    )![1];
    const loaded = await admin(...command.split(' '));
    expect(loaded.stdout).toMatch(/Loaded 1 fund, 1 company, 2 persons, 1 round, 1 kol, 1 builder/);
    expect(await getCuratedEntity('builder', 'bld-sample-solidity')).toMatchObject({
      name: 'Tomas Sample',
      category: 'smart-contract-engineer',
    });
  });

  it('phishing refresh downloads the given URL and keeps the list in use when the download will not do', async () => {
    // The shared table holds the package's copy (test/support/globalSetup.ts): an invented list of 30
    // domains is refused as far too small beside it, so this leaves every other file's list as it was.
    const source = await startPhishingListStandIn();
    try {
      const before = await getPhishingListHead();
      source.serve(inventedList({ padTo: 30 }));
      const refused = await admin('phishing', 'refresh', '--url', source.url);
      expect(source.requests).toHaveLength(1);
      expect(refused.stdout).toContain(`Phishing list kept: ${before!.blockedCount} domains from package.`);
      expect(refused.stdout).toContain(`The download was not used: download refused: only 30 domains listed`);
      source.serveRaw(502, 'Bad Gateway', 'text/plain');
      expect((await admin('phishing', 'refresh', '--url', source.url)).stdout).toContain('download failed: HTTP 502');
      expect(await getPhishingListHead()).toEqual(before);
      for (const args of [
        ['phishing'],
        ['phishing', 'fetch'],
        ['phishing', 'refresh', '--url', 'ftp://lists.example'],
      ]) {
        const failure = await admin(...args).then(
          () => undefined,
          (err) => err,
        );
        expect(failure, args.join(' ')).toMatchObject({ code: 1, stderr: expect.stringMatching(/phishing|--url/) });
      }
      expect(source.requests).toHaveLength(2);
    } finally {
      await source.close();
    }
  });
});
