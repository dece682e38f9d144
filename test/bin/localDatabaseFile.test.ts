import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTable, startDynamo } from '#bin/local/dynamo';

/*
 * `npm start` keeps the data in a SQLite file of DynamoDB Local's. The launcher creates that file
 * before the server does, with 4 KB pages in WAL mode (the server's own default, 1 KB pages and a
 * rollback journal, syncs a journal per commit); read from the file's header, as SQLite documents it.
 */

const hasJavac = spawnSync('javac', ['-version']).status === 0;
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Page size and journal mode from a SQLite file's 100-byte header (bytes 18 and 19 are 2 in WAL mode, 1 otherwise). */
function header(file: string): { pageSize: number; wal: boolean } {
  const bytes = readFileSync(file).subarray(0, 100);
  expect(bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
  return { pageSize: bytes.readUInt16BE(16), wal: bytes[18] === 2 && bytes[19] === 2 };
}

const clientOf = (endpoint: string, region = 'us-east-1') =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint,
      region,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );

describe.runIf(hasJavac)('the local database file', () => {
  it('is created with 4 KB pages in WAL mode, and its data is there after a restart', {
    timeout: 120_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outreach-db-file-'));
    folders.push(dataDir);
    const first = await startDynamo({ dataDir });
    await ensureTable(first.endpoint, 'kept');
    await clientOf(first.endpoint).send(
      new PutCommand({ TableName: 'kept', Item: { pk: 'A', sk: 'B', entity: 'probe', note: 'kept' } }),
    );
    await first.stop();
    const file = join(dataDir, 'local_us-east-1.db');
    expect(header(file)).toEqual({ pageSize: 4096, wal: true });

    const again = await startDynamo({ dataDir });
    const { Item } = await clientOf(again.endpoint).send(
      new GetCommand({ TableName: 'kept', Key: { pk: 'A', sk: 'B' }, ConsistentRead: true }),
    );
    await again.stop();
    expect(Item).toMatchObject({ note: 'kept' });
    expect(header(file)).toEqual({ pageSize: 4096, wal: true });
  });

  it('an existing file is left as it is', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outreach-db-file-'));
    folders.push(dataDir);
    // An empty file: SQLite makes it a database with its defaults when the server first writes.
    const file = join(dataDir, 'local_us-east-1.db');
    writeFileSync(file, '');
    const dynamo = await startDynamo({ dataDir });
    await ensureTable(dynamo.endpoint, 'kept');
    await dynamo.stop();
    expect(existsSync(file)).toBe(true);
    expect(header(file).wal).toBe(false);
  });

  it('in another AWS_REGION, the table is created where the server looks: that region, in that file', {
    timeout: 120_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outreach-db-file-'));
    folders.push(dataDir);
    const before = process.env.AWS_REGION;
    process.env.AWS_REGION = 'eu-west-1';
    try {
      const dynamo = await startDynamo({ dataDir });
      await ensureTable(dynamo.endpoint, 'regional');
      const client = clientOf(dynamo.endpoint, 'eu-west-1');
      await client.send(new PutCommand({ TableName: 'regional', Item: { pk: 'A', sk: 'B', entity: 'probe' } }));
      const { Item } = await client.send(
        new GetCommand({ TableName: 'regional', Key: { pk: 'A', sk: 'B' }, ConsistentRead: true }),
      );
      await dynamo.stop();
      expect(Item).toMatchObject({ entity: 'probe' });
      expect(header(join(dataDir, 'local_eu-west-1.db'))).toEqual({ pageSize: 4096, wal: true });
      expect(existsSync(join(dataDir, 'local_us-east-1.db'))).toBe(false);
    } finally {
      if (before === undefined) delete process.env.AWS_REGION;
      else process.env.AWS_REGION = before;
    }
  });
});
