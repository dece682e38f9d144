import * as z from '#shared/zod';
import { ValidationError } from '#shared/domain/errors';

/** zod parse whose issue paths start at `path` (e.g. expansion_scope.expansion_params). */
export function parseOrThrowAt<T extends z.core.$ZodType>(schema: T, value: unknown, path: string): z.output<T> {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  throw new ValidationError(
    'The expansion parameters are invalid.',
    result.error.issues.map((issue) => {
      const keys = issue.code === 'unrecognized_keys' ? ((issue as { keys?: string[] }).keys ?? []) : [];
      return {
        path: [path, ...issue.path.map(String)].join('.'),
        message: keys.length ? `Unknown property: ${keys.join(', ')}` : issue.message,
      };
    }),
  );
}
