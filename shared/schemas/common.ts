import { z } from 'zod';

export const timestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });
export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date as YYYY-MM-DD').meta({ format: 'date' });
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
