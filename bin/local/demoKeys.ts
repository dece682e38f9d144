import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The demo keys last shown, kept with the local database so a restart can show them again (only
 * hashes are in the table, so they cannot be read back from it). A kept key is shown only while the
 * account still has it; `--fresh` removes the folder and with it the keys.
 */
export class KeptDemoKeys {
  private readonly file: string;
  private readonly keys: Map<string, string>;

  constructor(private readonly dataDir: string) {
    this.file = join(dataDir, 'demo-keys.json');
    this.keys = new Map(
      existsSync(this.file)
        ? Object.entries(JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>)
        : [],
    );
  }

  get(email: string): string | undefined {
    return this.keys.get(email);
  }

  keep(email: string, key: string): void {
    if (this.keys.get(email) === key) return;
    this.keys.set(email, key);
    mkdirSync(this.dataDir, { recursive: true });
    writeFileSync(this.file, JSON.stringify(Object.fromEntries(this.keys), null, 2), { mode: 0o600 });
  }
}
