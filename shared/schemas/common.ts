import * as z from '#shared/zod';
import { withMeta } from '#shared/zod';

/** Whether `YYYY-MM-DD` (the first 10 characters) is a day that exists, in years 1 to 9999 (what sorts as text in DynamoDB). */
export function isCalendarDay(value: string): boolean {
  const [y, m, d] = [Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8, 10))];
  if (!(y >= 1 && y <= 9999)) return false;
  const day = new Date(0);
  day.setUTCFullYear(y, m - 1, d);
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/** ISO 8601 date-time, checked (not only labelled): a day that exists, an offset or Z. */
export const timestamp = withMeta(
  z.iso
    .datetime({ offset: true })
    .check(z.refine(isCalendarDay, 'Expected an ISO 8601 date-time on a real calendar day')),
  { format: 'date-time', description: 'ISO 8601 UTC with milliseconds' },
);
export const isoDate = withMeta(
  z
    .string()
    .check(
      z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date as YYYY-MM-DD'),
      z.refine(isCalendarDay, 'Expected a real calendar day between 0001-01-01 and 9999-12-31'),
    ),
  { format: 'date' },
);
export const uuid = z.uuid();

/** Query parameters every list endpoint takes; out-of-range values are 400, not clamped. */
export const pageQuery = {
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  offset: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  sort_order: z._default(z.enum(['asc', 'desc']), 'desc'),
};

export const pageOf = <T extends z.ZodMiniType>(item: T) =>
  z.object({ items: z.array(item), total: z.int(), limit: z.int(), offset: z.int() });

export const errorBody = withMeta(
  z.object({
    error: z.object({ code: z.string(), message: z.string(), details: z.optional(z.unknown()) }),
    request_id: z.string(),
  }),
  { id: 'ErrorBody' },
);

/** How an operation that speaks JSON-RPC 2.0 (MCP) refuses a message: the protocol's error response, not ErrorBody. */
export const jsonRpcErrorResponse = withMeta(
  z.object({
    jsonrpc: z.literal('2.0'),
    id: withMeta(z.union([z.string(), z.number(), z.null()]), {
      description: "The request's id; null when the message could not be read as one request",
    }),
    error: z.object({
      code: withMeta(z.int(), {
        description:
          '-32700 parse error, -32600 invalid request, -32601 method not found, -32022 protocol revision not served, -32000 transport refusal',
      }),
      message: z.string(),
      data: z.optional(z.unknown()),
    }),
  }),
  { id: 'JsonRpcErrorResponse' },
);

/**
 * A partial update (PATCH-like PUT): every field optional, at least one of them sent. The refinement
 * refuses `{}` at run time; `minProperties` says the same in the OpenAPI document.
 */
export const changeSet = <T extends z.ZodMiniType<Record<string, unknown>>>(schema: T, id: string) =>
  withMeta(
    withMeta(
      schema.check(
        z.refine((b) => Object.values(b).some((v) => v !== undefined), {
          message: 'Send at least one field to change',
        }),
      ),
      { minProperties: 1 },
    ),
    { id },
  );
