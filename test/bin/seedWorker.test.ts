import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { ensureTable } from '#bin/local/dynamo';
import { useLocalTable } from '#bin/local/runtime';
import { DatasetLoad } from '#bin/local/datasetLoad';
import { prepareSeedInWorker } from '#bin/local/earlyStart';
import { generateDataset } from '#bin/curated/generator';
import { getCuratedEntity, getSeedMarker } from '#shared/store/curatedReads';
import { uuidv7 } from '#shared/ids';

/*
 * A first start's dataset as `npm start` loads it: generated and packed in a worker thread (TypeScript
 * registered in it), written there once the table is known, the marker written last by the server.
 */
describe('the first start dataset worker', () => {
  it('prepares in a worker, the server writes every item, and the load reports progress until the marker is in', {
    timeout: 180_000,
  }, async () => {
    const endpoint = inject('dynamoEndpoint');
    const tableName = `outreach-seed-worker-${uuidv7()}`;
    await ensureTable(endpoint, tableName);
    useLocalTable(endpoint, tableName);
    const scale = 0.02;
    const load = new DatasetLoad(undefined, prepareSeedInWorker(scale));
    // Until the marker is written the curated endpoints are refused, with the progress made so far:
    // before the items are counted, their total is unknown (null), not 0.
    expect(load.unavailable()?.details).toEqual({ loaded_items: 0, total_items: null });
    const progress: unknown[] = [];
    const watch = setInterval(() => progress.push(load.unavailable()?.details), 1);
    await load.loaded;
    clearInterval(watch);
    expect(progress).toContainEqual({ loaded_items: expect.any(Number), total_items: expect.any(Number) });
    expect(load.unavailable()).toBeUndefined();

    const marker = await getSeedMarker();
    expect(marker).toMatchObject({ scale, seed: expect.any(Number), items: expect.any(Number) });
    const expected = generateDataset({ seed: marker!.seed, scale });
    expect(marker!.counts).toMatchObject({ funds: expected.funds.length, companies: expected.companies.length });
    // What the worker wrote is what the generator makes: the last company and person are readable by id.
    const company = expected.companies.at(-1)!;
    const person = expected.people.at(-1)!;
    expect(await getCuratedEntity('company', company.id)).toEqual(company);
    expect(await getCuratedEntity('person', person.id)).toEqual(person);
  });

  it.runIf(process.platform === 'linux')(
    'runs at the lowest priority, so the JVM and the server start before it on a small machine',
    { timeout: 60_000 },
    async () => {
      /** This process's threads at the lowest priority (nice 19, field 19 of /proc/self/task/<tid>/stat). */
      const lowest = () =>
        readdirSync('/proc/self/task').filter((tid) => {
          try {
            const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
            return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) === 19;
          } catch {
            return false; // the thread ended while listed
          }
        });
      const before = new Set(lowest());
      const added = () => lowest().filter((tid) => !before.has(tid));
      const seed = prepareSeedInWorker(0.01);
      try {
        const deadline = Date.now() + 30_000;
        while (added().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        // The worker's own thread, and only it: the server's threads keep their priority.
        expect(added()).toHaveLength(1);
        expect(lowest()).not.toContain(String(process.pid));
      } finally {
        seed.cancel();
      }
    },
  );
});
