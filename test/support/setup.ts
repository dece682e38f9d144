import { inject } from 'vitest';
import { useLocalTable } from '../../bin/local/runtime';

// Runs in every test worker before its suites: the data layer points at the shared DynamoDB Local.
useLocalTable(inject('dynamoEndpoint'), inject('tableName'));
process.env.STRIPE_WEBHOOK_SECRET = 'whsec_test_secret_for_signatures';
