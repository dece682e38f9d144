/**
 * The known-phishing-domain list end to end below the HTTP API: the refresh downloads it from a
 * stand-in of its public file, checks it and writes it to a real DynamoDB Local table; the read API
 * the detector calls answers from that table through its container cache. Domains are invented here.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { reloadConfig } from '#shared/config/config';
import {
  forgetPhishingList,
  hostAndParents,
  leadingPhishingDomains,
  phishingHostsAmong,
  phishingTargets,
} from '#shared/domain/moderation/phishingLists';
import { refreshPhishingList, seedPhishingList } from '#shared/domain/moderation/phishingListRefresh';
import { packagePhishingList } from '#shared/domain/moderation/phishingListPackage';
import { ddb, dynamoRequestCount, table } from '#shared/store/client';
import { PHISHING_LIST_SHARDS, phishingListShardKey } from '#shared/store/keys';
import { getPhishingListHead, getPhishingListShards } from '#shared/store/phishingListRepo';
import { useOwnTable } from '#test/support/ownTable';
import { inventedList, startPhishingListStandIn } from '#test/support/phishingListStandIn';

// A refresh replaces the deployment's one list: on the shared table it would change other files' verdicts.
await useOwnTable('outreach-phishing');
const source = await startPhishingListStandIn();
const saved = { url: process.env.PHISHING_LIST_URL, cache: process.env.PHISHING_LIST_CACHE_SECONDS };
process.env.PHISHING_LIST_URL = source.url;
afterAll(async () => {
  for (const [name, value] of [
    ['PHISHING_LIST_URL', saved.url],
    ['PHISHING_LIST_CACHE_SECONDS', saved.cache],
  ] as const)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  await source.close();
});
/** Each test reads the table afresh unless it sets a cache period itself. */
const cachePeriod = (seconds: number) => {
  process.env.PHISHING_LIST_CACHE_SECONDS = String(seconds);
  reloadConfig();
};
beforeEach(() => {
  cachePeriod(0);
  forgetPhishingList();
});

const SMALL = { minBlocked: 10 };
const FIRST = inventedList({
  blacklist: [
    'drainer-claim.test',
    'evil.example.co.uk',
    'airdrop.lure.test',
    'login.mint-free.test',
    'mint-free.test',
    'drainer.github.io',
    '192.0.2.10',
  ],
  // A public suffix is never an entry: it would except (or list) everything registered under it.
  whitelist: ['safe.drainer-claim.test', 'github.io'],
  fuzzylist: ['acme-swap.test', 'acme-wallet.test'],
  padTo: 40,
});

describe('the phishing list', () => {
  it('with no list in the table, nothing is phishing and there are no targets (no error reaches moderation)', async () => {
    expect(await getPhishingListHead()).toBeUndefined();
    expect(await phishingHostsAmong(['drainer-claim.test', 'mint-free.test'])).toEqual(new Set());
    expect(await phishingTargets()).toEqual([]);
    expect(await leadingPhishingDomains()).toEqual([]);
  });

  it('a refresh downloads the configured URL and writes the list in shards under a head', async () => {
    source.serve(FIRST);
    const report = await refreshPhishingList(SMALL);
    expect(report).toEqual({ outcome: 'written', source: source.url, changed: true, blocked: 40 });
    expect(source.requests.at(-1)).toMatchObject({ method: 'GET', path: '/src/config.json' });
    const head = await getPhishingListHead();
    expect(head).toMatchObject({
      shards: PHISHING_LIST_SHARDS,
      version: 2,
      source: source.url,
      blockedCount: 40,
      allowedCount: 1,
      targets: ['acme-swap.test', 'acme-wallet.test'],
      tolerance: 2,
    });
    const shards = await getPhishingListShards(
      head!.generation,
      Array.from({ length: head!.shards }, (_, n) => n),
    );
    expect([...shards.values()].flatMap((s) => s.blocked).sort()).toEqual([...FIRST.blacklist].sort());
    expect(await phishingTargets()).toEqual(['acme-swap.test', 'acme-wallet.test']);
  });

  it('matches a listed domain and its subdomains down to the registrable domain, and respects the whitelist', async () => {
    const hosts = [
      'drainer-claim.test',
      'www.drainer-claim.test',
      'safe.drainer-claim.test',
      'deep.safe.drainer-claim.test',
      'drainer-claim.test.example',
      'notdrainer-claim.test',
      'www.evil.example.co.uk',
      'example.co.uk',
      'lure.test',
      'x.airdrop.lure.test',
      'acme-swap.test',
      'login.drainer.github.io',
      'other.github.io',
      '192.0.2.10',
      '192.0.2.11',
    ];
    expect(await phishingHostsAmong(hosts)).toEqual(
      new Set([
        'drainer-claim.test',
        'www.drainer-claim.test',
        'www.evil.example.co.uk',
        'x.airdrop.lure.test',
        'login.drainer.github.io',
        '192.0.2.10',
      ]),
    );
    expect(hostAndParents('a.b.evil.example.co.uk')).toEqual([
      'a.b.evil.example.co.uk',
      'b.evil.example.co.uk',
      'evil.example.co.uk',
      'example.co.uk',
      'co.uk',
    ]);
    expect(hostAndParents('192.0.2.10')).toEqual(['192.0.2.10']);
  });

  it('AutoMod gets the leading domains in list order, each in its broadest listed form, none inside an excepted domain', async () => {
    const leading = await leadingPhishingDomains();
    // `*drainer-claim.test*` would also block the whitelisted safe.drainer-claim.test; login.mint-free.test is covered by mint-free.test.
    expect(leading.slice(0, 6)).toEqual([
      'evil.example.co.uk',
      'airdrop.lure.test',
      'mint-free.test',
      'drainer.github.io',
      '192.0.2.10',
      'lure-0-pad.test',
    ]);
    expect(leading).toHaveLength(38);
    expect(leading).not.toContain('drainer-claim.test');
    expect(leading).not.toContain('login.mint-free.test');
  });

  it.each([
    ['an error page', () => source.serveRaw(503, '<html>Service Unavailable</html>'), /HTTP 503/],
    ['HTML with status 200', () => source.serveRaw(200, '<!doctype html><html></html>'), /not JSON/],
    [
      'a truncated file',
      () => source.serveRaw(200, JSON.stringify(FIRST).slice(0, 200), 'application/json'),
      /not JSON/,
    ],
    [
      'another shape',
      () => source.serve({ version: 2, tolerance: 2, blacklist: 'drainer-claim.test' }),
      /blacklist is not a list/,
    ],
    [
      'malformed domains',
      () => source.serve(inventedList({ blacklist: Array(40).fill('<script>'), padTo: 80 })),
      /malformed/,
    ],
    [
      'a tiny list',
      () => source.serve(inventedList({ blacklist: ['other.test'], padTo: 12 })),
      /only 12 domains listed where the list in use has 40/,
    ],
  ])('a download that is %s leaves the list in use as it was', async (_what, serve, reason) => {
    const before = await getPhishingListHead();
    serve();
    const report = await refreshPhishingList(SMALL);
    expect(report).toMatchObject({ outcome: 'kept', source: source.url, changed: false, blocked: 40 });
    expect(report.reason).toMatch(reason);
    expect(await getPhishingListHead()).toEqual(before);
    expect(await phishingHostsAmong(['drainer-claim.test', 'other.test'])).toEqual(new Set(['drainer-claim.test']));
  });

  it('the same list again writes the same generation; a changed one is seen by readers once their cache period is over', async () => {
    const before = await getPhishingListHead();
    source.serve(FIRST);
    expect(await refreshPhishingList(SMALL)).toMatchObject({ outcome: 'written', changed: false });
    expect((await getPhishingListHead())!.generation).toBe(before!.generation);

    cachePeriod(3600);
    expect(await phishingHostsAmong(['mint-free.test', 'fresh-lure.test'])).toEqual(new Set(['mint-free.test']));
    // The shards a container read are kept: asking again reads nothing.
    const reads = dynamoRequestCount();
    expect(await phishingHostsAmong(['mint-free.test'])).toEqual(new Set(['mint-free.test']));
    expect(dynamoRequestCount() - reads).toBe(0);

    const second = inventedList({
      blacklist: ['fresh-lure.test', 'drainer-claim.test'],
      whitelist: [],
      fuzzylist: ['acme-swap.test'],
      padTo: 40,
    });
    source.serve(second);
    expect(await refreshPhishingList(SMALL)).toMatchObject({ outcome: 'written', changed: true });
    // Within the period this container still judges with the list it read.
    expect(await phishingHostsAmong(['mint-free.test', 'fresh-lure.test'])).toEqual(new Set(['mint-free.test']));
    expect(await phishingTargets()).toEqual(['acme-swap.test', 'acme-wallet.test']);
    cachePeriod(0);
    expect(await phishingHostsAmong(['mint-free.test', 'fresh-lure.test', 'safe.drainer-claim.test'])).toEqual(
      new Set(['fresh-lure.test', 'safe.drainer-claim.test']),
    );
    expect(await phishingTargets()).toEqual(['acme-swap.test']);
    // A new head costs one GetItem, and the shards of the hosts asked about one BatchGetItem.
    const fresh = dynamoRequestCount();
    expect(await phishingHostsAmong(['a.test', 'b.test', 'c.test', 'lure-7-pad.test'])).toEqual(
      new Set(['lure-7-pad.test']),
    );
    expect(dynamoRequestCount() - fresh).toBe(2);
  });

  it('the replaced generation is left to expire, not deleted under readers that still hold its head', async () => {
    const head = await getPhishingListHead();
    source.serve(FIRST);
    await refreshPhishingList(SMALL);
    const shards = await getPhishingListShards(head!.generation, [0, 1, 2]);
    expect(shards.size).toBe(3);
    const { Item } = await ddb().send(
      new GetCommand({ TableName: table(), Key: phishingListShardKey(head!.generation, 0) }),
    );
    expect(Item?.ttl).toBeGreaterThan(Date.now() / 1000);
    const current = await getPhishingListHead();
    const { Item: live } = await ddb().send(
      new GetCommand({ TableName: table(), Key: phishingListShardKey(current!.generation, 0) }),
    );
    expect(live?.ttl).toBeUndefined();
  });
});

describe('the package copy', () => {
  it('is written when the download fails and the table has no list; the seed writes it once', async () => {
    await useOwnTable('outreach-phishing-package');
    forgetPhishingList();
    source.serveRaw(500, 'Internal Server Error', 'text/plain');
    const packaged = packagePhishingList();
    const report = await refreshPhishingList();
    expect(report).toMatchObject({ outcome: 'written', source: 'package', blocked: packaged.blocked.length });
    expect(report.reason).toMatch(/HTTP 500/);
    expect(await getPhishingListHead()).toMatchObject({
      source: 'package',
      blockedCount: packaged.blocked.length,
      targets: packaged.targets,
    });
    // A listed domain of the package's own (read from the package, not copied here) is found with a subdomain.
    const listed = packaged.blocked.find((d) => hostAndParents(d).length === 1 && !packaged.allowed.includes(d))!;
    expect(await phishingHostsAmong([`login.${listed}`])).toEqual(new Set([`login.${listed}`]));
    expect(await seedPhishingList()).toBe(false);
  });

  it('the seed writes the package copy into a table with no list', async () => {
    await useOwnTable('outreach-phishing-seed');
    forgetPhishingList();
    expect(await seedPhishingList()).toBe(true);
    expect(await getPhishingListHead()).toMatchObject({ source: 'package' });
  });
});
