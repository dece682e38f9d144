import { inject } from 'vitest';
import { useLocalTable } from '#bin/local/runtime';

// The stack tier: the data layer of each test worker points at the DynamoDB Local its global set-up started.
useLocalTable(inject('dynamoEndpoint'), inject('tableName'));
