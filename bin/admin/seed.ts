import { DEFAULT_SEED } from '#bin/curated/generator';
import { seedCuratedDataset } from '#bin/curated/seed';
import { flag } from './flags';
import { UsageError } from './options';

/** `seed [--scale 1] [--seed N]`: (re)loads the generated curated dataset; writes are idempotent overwrites. */
export function seedCommand(args: string[]): () => Promise<void> {
  const scale = Number(flag(args, 'scale') ?? 1);
  const seed = Number(flag(args, 'seed') ?? DEFAULT_SEED);
  if (!(scale > 0 && scale <= 1)) throw new UsageError('--scale must be a number in (0, 1]');
  if (!Number.isSafeInteger(seed)) throw new UsageError('--seed must be an integer');
  return () => run(scale, seed);
}

async function run(scale: number, seed: number): Promise<void> {
  console.error('Generating and loading the curated Web3 dataset...');
  let reported = Date.now();
  const outcome = await seedCuratedDataset({
    scale,
    seed,
    force: true,
    onProgress: (written, total) => {
      if (Date.now() - reported < 5_000) return;
      reported = Date.now();
      console.error(`  ${written} of ${total} items (${Math.floor((100 * written) / total)}%)`);
    },
  });
  const c = outcome.marker.counts;
  console.log(
    `Seeded ${c.funds} funds, ${c.companies} companies, ${c.rounds} funding rounds, ${c.people} people, ${c.kols} KOLs and ${c.builders} builders ` +
      `(${outcome.marker.items} items) in ${(outcome.ms / 1000).toFixed(1)} s.`,
  );
}
