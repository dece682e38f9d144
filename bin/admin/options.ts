import * as z from 'zod';
import { flag } from './flags';

/** A flag the operator got wrong: reported with exit code 1 before anything is connected to or written. */
export class UsageError extends Error {}

// Number('1e300') and Number('9007199254740993') are "integers" that lose digits, so credits are
// checked as digits first and then as a safe integer.
const credits = (min: number) =>
  z
    .string()
    .regex(/^\d{1,16}$/, 'must be a whole number of credits')
    .transform(Number)
    .pipe(z.number().int().min(min).max(Number.MAX_SAFE_INTEGER));

const schemas = {
  'create-user': z.object({
    email: z.email(),
    tier: z.enum(['developer', 'pro']).default('developer'),
    credits: credits(0).default(0),
  }),
  'grant-credits': z.object({ email: z.email(), credits: credits(1) }),
  renewals: z.object({ at: z.iso.datetime({ offset: true }).optional() }),
  'telegram-webhook': z.object({ url: z.url({ protocol: /^https?$/ }) }),
  'discord-commands': z.object({}),
  phishing: z.object({ url: z.url({ protocol: /^https?$/ }).optional() }),
} as const;

export type AdminOptions = { [K in keyof typeof schemas]: z.output<(typeof schemas)[K]> };

/** The flags a command takes, validated as a whole; any problem is a UsageError naming the flag. */
export function parseOptions<K extends keyof typeof schemas>(command: K, args: string[]): AdminOptions[K] {
  const schema = schemas[command];
  const raw: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = flag(args, name);
    if (value !== undefined) raw[name] = value;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new UsageError(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '));
  }
  return parsed.data as AdminOptions[K];
}
