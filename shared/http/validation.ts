import * as z from '#shared/zod';
import { ValidationError, type FieldIssue } from './errors';

/** Parses `value` with `schema`, turning zod's issues into the contract's `[{path, message}]`. */
export function parseOrThrow<T extends z.core.$ZodType>(
  schema: T,
  value: unknown,
  where: 'body' | 'query' | 'path',
): z.output<T> {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const details: FieldIssue[] = result.error.issues.map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? ((issue as { keys?: string[] }).keys ?? []) : [];
    const path = [...(where === 'body' ? [] : [where]), ...issue.path.map(String)];
    const message = keys.length ? `Unknown property: ${keys.join(', ')}` : issue.message;
    return { path: path.join('.') || where, message };
  });
  throw new ValidationError(
    `The request ${where === 'body' ? 'body' : where === 'query' ? 'query string' : 'path'} is invalid.`,
    details,
  );
}
