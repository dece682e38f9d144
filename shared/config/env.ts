/** Reads configuration once; a missing required variable fails loudly at cold start, not mid-request. */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Missing required environment variable ${name}`);
  return value;
}

export function optionalEnv(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

export const tableName = (): string => requireEnv('TABLE_NAME');
