import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { filesUnder } from '#test/support/projectFiles';

/**
 * The test files run side by side against one DynamoDB Local, most of them on one shared table. A
 * scheduled sweep is not scoped to a caller: a renewal sweep renews, suspends or expires every community
 * of its table due by its instant (the captcha, poll, AutoMod, Crisp mute, delivery, job and webhook
 * sweeps likewise take every due item), and a sweep ahead of time (`renewals --at`, a clock set forward)
 * reaches items another file is in the middle of testing. A file that runs one therefore has a table of
 * its own (test/support/ownTable.ts); a file that needs one community renewed calls `renewCommunity`
 * on it instead (test/e2e/discordModeration.test.ts). The guide's walkthrough's (docs/guide) `renewals --at` runs
 * against the table its own server was started on.
 */
const SWEEPS = [
  /\brenewDueCommunities\b/,
  /\brunRenewalSweep\b/,
  // The function itself, run (test/wiring/config.test.ts only loads its module).
  /\brenewals\.handler\(/,
  /['"]bin\/admin\.ts['"],\s*['"]renewals['"]/,
  // The other scheduled sweeps read every due item of the table as well.
  /\bremoveUnverifiedMembers\(/,
  /\bliftEndedCrispMutes\(/,
  /\brequeueStalledDeliveries\(/,
  /\brequeueDueAutomodSyncs\(/,
  /\bfanOutPolls\(/,
  /\bsuperviseJobs\(/,
  /\bsweepWebhooks\(/,
];

describe('scheduled sweeps in tests', () => {
  it('run only in files with a table of their own', () => {
    const sweeping = filesUnder('test', '.test.ts').filter((file) => {
      const source = readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
      return SWEEPS.some((sweep) => sweep.test(source));
    });
    // The files known to sweep are found: a pattern that stopped matching would pass everything.
    expect(sweeping).toEqual(
      expect.arrayContaining([
        'test/e2e/moderationRenewals.test.ts',
        'test/e2e/webhooks.test.ts',
        'test/wiring/lambdaWiring.test.ts',
        'test/e2e/platformSeam.test.ts',
        'test/e2e/xModeration.test.ts',
      ]),
    );
    const onSharedTable = sweeping.filter(
      (file) => !/^await useOwnTable\(/m.test(readFileSync(path.join(PROJECT_ROOT, file), 'utf8')),
    );
    expect(onSharedTable).toEqual([]);
  });
});
