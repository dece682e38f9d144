import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import config, { UNIT_TESTS } from '../../vitest.config';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { ddb, table } from '#shared/store/client';
import { NO_TABLE_MESSAGE } from '#test/support/noTable';

/** This file is in the unit tier: it runs with no DynamoDB Local, as its neighbours do. */
describe('the unit tier', () => {
  it('fails a request to the table at once, saying which tier the test belongs to', async () => {
    await expect(ddb().send(new GetCommand({ TableName: table(), Key: { pk: 'a', sk: 'b' } }))).rejects.toThrow(
      NO_TABLE_MESSAGE,
    );
  });

  it('refuses a client of its own too, even one with no endpoint (it would go to AWS)', async () => {
    const client = new DynamoDBClient({ maxAttempts: 1 });
    await expect(client.send(new ListTablesCommand({}))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    client.destroy();
  });

  it('starts no DynamoDB Local: only the stack tier has the global set-up', () => {
    const projects = (config.test?.projects ?? []) as { test: { name: string; globalSetup?: string[] } }[];
    expect(projects.map((p) => [p.test.name, p.test.globalSetup ?? []])).toEqual([
      ['unit', []],
      ['stack', ['test/support/globalSetup.ts']],
    ]);
  });

  it('lists files that exist (a renamed file would quietly move to the stack tier)', () => {
    expect(UNIT_TESTS.filter((file) => !existsSync(path.join(PROJECT_ROOT, file)))).toEqual([]);
    expect(UNIT_TESTS).toContain('test/layout/testTiers.test.ts');
  });
});
