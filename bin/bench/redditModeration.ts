/**
 * Moderation on Reddit: what polling costs and how fast it acts. Against the recording Reddit
 * stand-in (bin/standIns/redditStandIn.ts, answering what Reddit would), through the real adapter,
 * the minute schedule's fan-out and the in-process queue:
 * - Reddit requests per polled community per minute, on a quiet minute and on a busy one;
 * - how many subreddits one deployment serves inside the ~100 requests a minute of one Reddit app;
 * - latency from a poll starting (the minute's schedule, or POST /sync) to the removal reaching Reddit.
 */
import { required } from './harness';
import { fanOutPolls } from '#shared/domain/moderation/pollFanOut';
import { REDDIT_SUBREDDITS_PER_SHARD } from '#shared/platforms/reddit/schedule';
import { POLL_RESERVE } from '#shared/platforms/reddit/readListing';
import { DEFAULT_WINDOW } from '#shared/platforms/reddit/budgetRepo';
import type { BenchSuite } from './harness';
import { startBenchReddit } from './redditStand';

const BASE = '/integrations/moderation';
const SUBREDDITS = 120;
const SCAM = 'Free airdrop! Claim now at the link';
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export const redditModerationBench: BenchSuite = {
  name: 'Moderation on Reddit (requests per poll, capacity, poll to platform call)',
  async run({ call, ports, print }) {
    const bench = await startBenchReddit('bench');
    const { stand: reddit, clientId } = bench;
    const settle = () => ports.queue.settled();
    const gets = () => reddit.calls.filter((c) => c.method === 'GET').length;
    try {
      // Bound subreddits, activated as a customer would: a private message each, read from the inbox.
      const subs: { sub: string; id: string; token: string }[] = [];
      for (let i = 0; i < SUBREDDITS; i++) {
        const community = await call('POST', `${BASE}/communities`, {
          body: { name: `Bench r/${i}`, project_name: 'Bench', type: 'reddit' },
          expect: 201,
        });
        subs.push({ sub: `bench_${clientId.slice(6)}_${i}`, id: community.id, token: community.activation_token });
      }
      await bench.activate(subs);

      // A first minute reads every subreddit once (no cursor yet); the next ones are the steady state.
      await fanOutPolls();
      await settle();
      reddit.reset();
      const quiet = await fanOutPolls();
      await settle();
      const quietRequests = gets();
      const shards = quiet.platforms.reddit.shards;
      print(
        `quiet minute: ${SUBREDDITS} subreddits in ${shards - 1} shards + the inbox: ${quietRequests} requests = ${(quietRequests / SUBREDDITS).toFixed(3)} per subreddit per minute`,
      );

      // A busy minute: three new posts and three new comments in every subreddit, one post of each a scam.
      reddit.reset();
      for (const { sub } of subs) {
        for (let k = 0; k < 3; k++) {
          const post = reddit.post(sub, `member_${sub}_${k}`, k === 0 ? SCAM : `Roadmap question ${k}`);
          reddit.comment(sub, `commenter_${sub}_${k}`, `Reply ${k}`, post);
        }
      }
      const tick = Date.now();
      await fanOutPolls();
      await settle();
      const busyReads = gets();
      const removals = reddit.calls
        .filter((c) => c.path === '/api/remove')
        .map((c) => c.at - tick)
        .sort((a, b) => a - b);
      const writes = reddit.calls.filter((c) => c.method === 'POST').length;
      print(
        `busy minute (6 new items per subreddit): ${busyReads} reads = ${(busyReads / SUBREDDITS).toFixed(3)} per subreddit, plus ${writes} action calls for ${SUBREDDITS} scams`,
      );
      if (removals.length)
        print(
          `${'minute tick -> POST /api/remove at Reddit'.padEnd(48)} n=${String(removals.length).padStart(4)}  p50=${percentile(removals, 50).toFixed(1).padStart(7)} ms  p95=${percentile(removals, 95).toFixed(1).padStart(7)} ms`,
        );

      // Capacity inside one app's budget: per minute, the inbox read plus two listings per shard,
      // with the poll's reserve left to actions; the busy figure pages as the busy minute did.
      const budget = DEFAULT_WINDOW.requests;
      const perShardQuiet = (quietRequests - 1) / (shards - 1);
      const perShardBusy = (busyReads - 1) / (shards - 1);
      const capacity = (perShard: number) =>
        Math.floor((budget - 1 - POLL_RESERVE.schedule.reserve) / perShard) * REDDIT_SUBREDDITS_PER_SHARD;
      print(
        `capacity inside ${budget} requests/min (reserve ${POLL_RESERVE.schedule.reserve} for actions): ${capacity(perShardQuiet)} quiet subreddits (${perShardQuiet.toFixed(2)} reads per shard of ${REDDIT_SUBREDDITS_PER_SHARD}), ${capacity(perShardBusy)} at the busy rate (${perShardBusy.toFixed(2)} per shard)`,
      );

      // POST /sync of one community with one new scam: the request polls, the queue delivers.
      const latencies: number[] = [];
      for (let i = 0; i < 30; i++) {
        const { sub, id } = subs[i % subs.length];
        reddit.reset();
        const item = reddit.post(sub, `spammer_${i}`, SCAM);
        const start = Date.now();
        await call('POST', `${BASE}/sync`, { body: { community_id: id }, expect: 200 });
        while (!reddit.calls.some((c) => c.path === '/api/remove' && c.form.id === item))
          await new Promise((r) => setTimeout(r, 2));
        const removal = required(
          reddit.calls.find((c) => c.path === '/api/remove' && c.form.id === item),
          'the removal call',
        );
        latencies.push(removal.at - start);
      }
      latencies.sort((a, b) => a - b);
      print(
        `${'POST /sync -> POST /api/remove at Reddit'.padEnd(48)} n=${String(latencies.length).padStart(4)}  p50=${percentile(latencies, 50).toFixed(1).padStart(7)} ms  p95=${percentile(latencies, 95).toFixed(1).padStart(7)} ms`,
      );
      await settle();
    } finally {
      await bench.close();
    }
  },
};
