import { afterAll, beforeEach, expect } from 'vitest';
import { collectLogLines, secretsInLogs } from './logGuard';
import { reloadConfig } from '#shared/config/config';
import { providerSecretNames } from '#shared/adapters/enrichment/catalog';

// Runs in every test worker of both tiers before its suites, after the tier's own set-up (tableSetup.ts or noTable.ts).
process.env.STRIPE_WEBHOOK_SECRET = 'whsec_test_secret_for_signatures';
// A data provider's key in the developer's shell would send every test's jobs to the real provider (and
// bill them): tests use the stand-ins, whose files set their own keys.
for (const name of providerSecretNames()) delete process.env[name];
// A test file sets its variables (a stand-in's address, a poll interval) at its top, after its imports
// may already have read the configuration: each test starts from the environment as the file left it.
beforeEach(() => reloadConfig());

// No test file may make the service log a key, a secret or an e-mail address.
collectLogLines();
afterAll(() => {
  expect(secretsInLogs()).toEqual([]);
});
