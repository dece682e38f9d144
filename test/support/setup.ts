import { afterAll, expect, inject } from 'vitest';
import { collectLogLines, secretsInLogs } from './logGuard';
import { useLocalTable } from '#bin/local/runtime';

// Runs in every test worker before its suites: the data layer points at the shared DynamoDB Local.
useLocalTable(inject('dynamoEndpoint'), inject('tableName'));
process.env.STRIPE_WEBHOOK_SECRET = 'whsec_test_secret_for_signatures';

// No test file may make the service log a key, a secret or an e-mail address.
collectLogLines();
afterAll(() => {
  expect(secretsInLogs()).toEqual([]);
});
