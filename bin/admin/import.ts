import { readFileSync } from 'node:fs';
import { importCuratedRecords } from '#bin/curated/importer';
import { requiredFlag } from './flags';

/** `import --file F.jsonl`: validates every line, then loads all of it or nothing (format: bin/curated/importer.ts). */
export function importCommand(args: string[]): () => Promise<void> {
  return () => run(args);
}

async function run(args: string[]): Promise<void> {
  const file = requiredFlag(args, 'file');
  const outcome = await importCuratedRecords(readFileSync(file, 'utf8'));
  if (!outcome.ok) {
    for (const p of outcome.problems) console.error(`${file}:${p.line}: ${p.message}`);
    throw new Error(`${outcome.problems.length} problem(s) found; nothing was loaded.`);
  }
  const summary = Object.entries(outcome.counts)
    .map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : 's'}`)
    .join(', ');
  console.log(`Loaded ${summary} (${outcome.items} items).`);
}
