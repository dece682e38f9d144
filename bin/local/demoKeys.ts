import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isApiKeyForm } from '#shared/domain/accounts/apiKeys';

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

/** The variables that fix the demo accounts' keys (empty or unset: the start issues or keeps one). */
export const DEMO_KEY_VARIABLES = ['DEMO_PRO_API_KEY', 'DEMO_DEVELOPER_API_KEY'] as const;

/**
 * The sentence to stop `npm start` with when a demo key variable is set to something that is not a
 * key (checked before anything starts, so a typo is one line, not a stack trace after Java started).
 * Never repeats the value: it is meant to be a secret.
 */
export function demoKeyProblem(env: Record<string, string | undefined>): string | undefined {
  const wrong = DEMO_KEY_VARIABLES.find((name) => env[name] && !isApiKeyForm(env[name]));
  return (
    wrong &&
    `${wrong} must be oik_ followed by 40 URL-safe characters (A-Z, a-z, 0-9, _ or -); fix it, or unset it to have a key issued.`
  );
}
