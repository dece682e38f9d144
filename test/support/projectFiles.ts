import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from '#infra/projectRoot';

/** The files under a folder of the project whose names end in `suffix`, as project paths (`shared/ids.ts`). */
export const filesUnder = (dir: string, suffix = '.ts'): string[] =>
  readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(rel, suffix);
    return entry.name.endsWith(suffix) ? [rel] : [];
  });
