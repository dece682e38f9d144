import { beforeEach, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '#bin/local/dynamo';
import { useLocalTable } from '#bin/local/runtime';
import { installPorts } from '#shared/adapters/ports';
import { systemClock } from '#shared/adapters/clock';
import type { EnrichmentProvider, LookupOutcome, ProviderName } from '#shared/adapters/enrichment/port';
import { ProviderWaterfall } from '#shared/domain/jobs/providers/waterfall';
import { uuidv7 } from '#shared/ids';
import { releaseProviderSlot, takeProviderSlot } from '#shared/store/providerSlotsRepo';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from '#shared/store/client';
import { providerPauseKey } from '#shared/store/keys';

installPorts({ clock: systemClock });
// A table of its own: a provider paused here would be paused for every test file sharing a table.
const own = `outreach-waterfall-${uuidv7()}`;
await ensureTable(inject('dynamoEndpoint'), own);
useLocalTable(inject('dynamoEndpoint'), own);

/** A provider as the port gives it: each company_size call answered by `answer`, and counted. */
function provider(
  name: ProviderName,
  answer: (domain: string) => Promise<LookupOutcome<{ employee_count: number }>>,
  slots = 4,
) {
  const asked: string[] = [];
  const p: EnrichmentProvider = {
    name,
    slots,
    lookups: {
      company_size: async ({ domain }) => {
        asked.push(domain);
        return answer(domain);
      },
    },
  };
  return { p, asked };
}
const found = (n: number) => async () => ({ ok: true as const, value: { employee_count: n } });
const nothing = async () => ({ ok: true as const, value: null });
const domain = () => `${uuidv7()}.waterfall-test.io`;

// Each test starts with no provider paused (a refusal in one pauses the provider for the table).
beforeEach(() =>
  Promise.all(
    ['hunter', 'zerobounce'].map((p) =>
      ddb().send(new DeleteCommand({ TableName: table(), Key: providerPauseKey(p) })),
    ),
  ),
);

describe('the provider waterfall', () => {
  it('asks each provider in order until one finds it, and remembers every answer (found or not) for the next run', async () => {
    const first = provider('hunter', nothing);
    const second = provider('zerobounce', found(12));
    const d = domain();
    const run = new ProviderWaterfall([first.p, second.p]);
    expect(await run.ask('company_size', { domain: d })).toEqual({
      value: { employee_count: 12 },
      source: 'zerobounce',
    });
    expect(run.report()).toMatchObject({
      bought: { hunter: { company_size: 1 }, zerobounce: { company_size: 1 } },
      cached: 0,
    });
    // Another run (another batch, another customer): both answers come from the table.
    const again = new ProviderWaterfall([first.p, second.p]);
    expect(await again.ask('company_size', { domain: d.toUpperCase() })).toEqual({
      value: { employee_count: 12 },
      source: 'zerobounce',
    });
    expect(first.asked).toEqual([d]);
    expect(second.asked).toEqual([d]);
    expect(again.report()).toMatchObject({ bought: {}, cached: 2, warnings: [] });
  });

  it('asks once for one lookup several rows make at the same time', async () => {
    const slow = provider('hunter', async () => {
      await new Promise((r) => setTimeout(r, 50));
      return { ok: true, value: { employee_count: 3 } };
    });
    const d = domain();
    const run = new ProviderWaterfall([slow.p]);
    const answers = await Promise.all([1, 2, 3].map(() => run.ask('company_size', { domain: d })));
    expect(answers.map((a) => a?.value.employee_count)).toEqual([3, 3, 3]);
    expect(slow.asked).toHaveLength(1);
  });

  it('a failure is a warning and the next provider answers; a stopping failure (key, quota) skips the provider for the rest of the run; failures are not remembered', async () => {
    const refusing = provider('hunter', async () => ({
      ok: false,
      error: 'hunter /companies/find: HTTP 401',
      stop: true,
    }));
    const backup = provider('zerobounce', found(7));
    const run = new ProviderWaterfall([refusing.p, backup.p]);
    const [a, b] = [domain(), domain()];
    expect((await run.ask('company_size', { domain: a }))?.source).toBe('zerobounce');
    expect((await run.ask('company_size', { domain: b }))?.source).toBe('zerobounce');
    expect(refusing.asked).toEqual([a]);
    expect(run.report().warnings).toEqual(['hunter /companies/find: HTTP 401; not asked again for this batch']);
    // The refusal paused the provider for every worker: a new run does not ask it, and says why.
    const next = new ProviderWaterfall([refusing.p, backup.p]);
    expect((await next.ask('company_size', { domain: domain() }))?.source).toBe('zerobounce');
    expect(refusing.asked).toEqual([a]);
    expect(next.report().warnings).toEqual([
      expect.stringMatching(
        /^hunter: paused until .* \(hunter \/companies\/find: HTTP 401\); not asked for this batch$/,
      ),
    ]);
    // Once the pause is over it is asked again: its failure was never kept as an answer.
    await ddb().send(new DeleteCommand({ TableName: table(), Key: providerPauseKey('hunter') }));
    await new ProviderWaterfall([refusing.p, backup.p]).ask('company_size', { domain: b });
    expect(refusing.asked).toEqual([a, b]);
  });

  it('an answer that is not conclusive goes on to the next provider', async () => {
    const unsure = provider('hunter', found(0));
    const sure = provider('zerobounce', found(40));
    const out = await new ProviderWaterfall([unsure.p, sure.p]).ask(
      'company_size',
      { domain: domain() },
      (v) => v.employee_count > 0,
    );
    expect(out).toEqual({ value: { employee_count: 40 }, source: 'zerobounce' });
  });

  it('past its time budget a run starts no call and says so once', async () => {
    const p = provider('hunter', found(5));
    const run = new ProviderWaterfall([p.p], 0);
    await new Promise((r) => setTimeout(r, 5));
    expect(await run.ask('company_size', { domain: domain() })).toBeNull();
    expect(await run.ask('company_size', { domain: domain() })).toBeNull();
    expect(p.asked).toEqual([]);
    expect(run.report().warnings).toEqual([
      "hunter: the batch's time for outside providers ran out; lookups left were not asked",
    ]);
  });

  it("keeps to the provider's call slots across workers: with every slot held elsewhere it waits, and calls once one is given back", async () => {
    const p = provider('zerobounce', found(9), 2);
    // Another worker holds both of the provider's slots.
    const now = Date.now();
    expect(await takeProviderSlot('zerobounce', 0, 'other-worker#1', now, now + 60_000)).toBe(true);
    expect(await takeProviderSlot('zerobounce', 1, 'other-worker#2', now, now + 60_000)).toBe(true);
    const asking = new ProviderWaterfall([p.p]).ask('company_size', { domain: domain() });
    await new Promise((r) => setTimeout(r, 300));
    expect(p.asked).toEqual([]);
    await releaseProviderSlot('zerobounce', 1, 'other-worker#2');
    expect(await asking).toEqual({ value: { employee_count: 9 }, source: 'zerobounce' });
    expect(p.asked).toHaveLength(1);
    // The slot this run used is free again; slot 0 is still the other worker's.
    expect(await takeProviderSlot('zerobounce', 1, 'third#1', Date.now(), Date.now() + 1000)).toBe(true);
    expect(await takeProviderSlot('zerobounce', 0, 'third#2', Date.now(), Date.now() + 1000)).toBe(false);
    await releaseProviderSlot('zerobounce', 0, 'other-worker#1');
    await releaseProviderSlot('zerobounce', 1, 'third#1');
  });

  it("a dead worker's slot frees when its lease runs out", async () => {
    const now = Date.now();
    expect(await takeProviderSlot('hunter', 7, 'dead#1', now - 60_000, now - 1)).toBe(true);
    expect(await takeProviderSlot('hunter', 7, 'alive#1', now, now + 1000)).toBe(true);
    await releaseProviderSlot('hunter', 7, 'alive#1');
  });
});
