import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CONSOLE_SIDE_FILES } from '#infra/functionCatalog';
import { PROJECT_ROOT } from '#infra/projectRoot';

/** What a browser downloads for the console, gzipped (the page itself is a few hundred bytes more). */
export const CONSOLE_BUDGET_BYTES = 100 * 1024;

export function consoleFigures(): { file: string; bytes: number; gzipped: number }[] {
  return CONSOLE_SIDE_FILES.map((file) => {
    const text = readFileSync(join(PROJECT_ROOT, file));
    return { file, bytes: text.length, gzipped: gzipSync(text, { level: 9 }).length };
  });
}

export function printConsoleFigures(): void {
  const rows = consoleFigures();
  for (const r of rows)
    console.log(`${r.file.padEnd(34)} ${String(r.bytes).padStart(8)} B  ${String(r.gzipped).padStart(7)} B gzipped`);
  const total = rows.reduce((s, r) => s + r.gzipped, 0);
  console.log(
    `console total ${(total / 1024).toFixed(1)} KB gzipped (budget ${CONSOLE_BUDGET_BYTES / 1024} KB): ${total <= CONSOLE_BUDGET_BYTES ? 'within' : 'OVER BUDGET'}`,
  );
}
