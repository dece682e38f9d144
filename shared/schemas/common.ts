import * as z from 'zod';

/** Whether `YYYY-MM-DD` (the first 10 characters) is a day that exists, in years 1 to 9999 (what sorts as text in DynamoDB). */
export function isCalendarDay(value: string): boolean {
  const [y, m, d] = [Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8, 10))];
  if (!(y >= 1 && y <= 9999)) return false;
  const day = new Date(0);
  day.setUTCFullYear(y, m - 1, d);
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/** ISO 8601 date-time, checked (not only labelled): a day that exists, an offset or Z. */
export const timestamp = z.iso
  .datetime({ offset: true })
  .refine(isCalendarDay, 'Expected an ISO 8601 date-time on a real calendar day')
  .meta({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date as YYYY-MM-DD')
  .refine(isCalendarDay, 'Expected a real calendar day between 0001-01-01 and 9999-12-31')
  .meta({ format: 'date' });
export const uuid = z.uuid();

/** Query parameters every list endpoint takes (contract 1); out-of-range values are 400, not clamped. */
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  sort_order: z.enum(['asc', 'desc']).default('desc'),
};

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });

export const errorBody = z
  .object({
    error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
    request_id: z.string(),
  })
  .meta({ id: 'ErrorBody' });

/**
 * A partial update (PATCH-like PUT): every field optional, at least one of them sent. The refinement
 * refuses `{}` at run time; `minProperties` says the same in the OpenAPI document.
 */
export const changeSet = <T extends z.ZodType<Record<string, unknown>>>(schema: T, id: string) =>
  schema
    .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'Send at least one field to change' })
    .meta({ minProperties: 1 })
    .meta({ id });
