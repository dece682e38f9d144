/** `npm run console`: rebuilds the web console's committed files (functions/public/console.*) from console/. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { buildConsole } from './consoleBuild';

for (const [name, text] of Object.entries(await buildConsole())) {
  writeFileSync(join(PROJECT_ROOT, 'functions/public', name), text);
  console.log(`wrote functions/public/${name} (${text.length} bytes)`);
}
