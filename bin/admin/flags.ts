/** `--name value` from an argument list. */
export function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

export function requiredFlag(args: string[], name: string): string {
  const value = flag(args, name);
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} is required`);
  return value;
}
