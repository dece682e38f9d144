import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { startDynamo } from '#bin/local/dynamo';
import { startLocalRuntime } from '#bin/local/runtime';
import { uuidv7 } from '#shared/ids';

/*
 * `npm start` on a shared network: the API and DynamoDB Local (which has no authentication) listen on
 * 127.0.0.1 unless HOST says otherwise. Read from the kernel's socket table, so nothing the servers
 * report about themselves is taken on trust.
 */

/** The local addresses of the sockets listening on a TCP port (Linux /proc/net/tcp{,6}, hex as the kernel writes it). */
function listeners(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols.length > 3 && cols[3] === '0A' && cols[1].endsWith(`:${hexPort}`))
      .map((cols) => cols[1].split(':')[0]),
  );
}
const LOOPBACK = new Set(['0100007F', '0000000000000000FFFF00000100007F', '00000000000000000000000001000000']);

/** An address of this machine other than loopback, if it has one. */
const outwardAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === 'IPv4')?.address;

const refused = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe.runIf(process.platform === 'linux')('local servers listen on 127.0.0.1 by default', () => {
  it('DynamoDB Local', { timeout: 60_000 }, async () => {
    const dynamo = await startDynamo();
    try {
      const port = Number(new URL(dynamo.endpoint).port);
      expect(new URL(dynamo.endpoint).hostname).toBe('127.0.0.1');
      const bound = listeners(port);
      expect(bound.length).toBeGreaterThan(0);
      for (const address of bound) expect(LOOPBACK.has(address), address).toBe(true);
      if (outwardAddress) expect(await refused(outwardAddress, port)).toBe(true);
    } finally {
      await dynamo.stop();
    }
  });

  it('the API', { timeout: 60_000 }, async () => {
    const runtime = await startLocalRuntime({
      port: 0,
      dataDir: '',
      fresh: false,
      renewalsEverySeconds: 3600,
      dynamo: { endpoint: inject('dynamoEndpoint'), tableName: `outreach-hosts-${uuidv7()}`, datasetScale: 0.01 },
    });
    try {
      const port = Number(new URL(runtime.baseUrl).port);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status).toBe(200);
      const bound = listeners(port);
      expect(bound.length).toBeGreaterThan(0);
      for (const address of bound) expect(LOOPBACK.has(address), address).toBe(true);
      if (outwardAddress) expect(await refused(outwardAddress, port)).toBe(true);
    } finally {
      await runtime.stop();
    }
  });

  it('HOST widens it when asked', { timeout: 60_000 }, async () => {
    process.env.HOST = '0.0.0.0';
    try {
      const dynamo = await startDynamo();
      try {
        expect(listeners(Number(new URL(dynamo.endpoint).port))).toEqual(
          expect.arrayContaining([expect.stringMatching(/^0+$/)]),
        );
      } finally {
        await dynamo.stop();
      }
    } finally {
      delete process.env.HOST;
    }
  });
});
