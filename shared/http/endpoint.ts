import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The contract of one endpoint: what it accepts and how it is guarded. Specs live in
 * shared/schemas (zod only, no runtime dependencies) so the OpenAPI document, the CDK stack and
 * the local server all read the same list; handlers bind an implementation to a spec with `route`.
 */
export interface EndpointSpec {
  operationId: string;
  method: HttpMethod;
  /** API Gateway resource path, e.g. /api/v1/chats/{chat_id}. */
  path: string;
  summary: string;
  tag: string;
  /** `none`: public. `api_key`: bearer key through the authorizer. */
  auth: 'api_key' | 'none';
  /** Needs an active pro subscription (403 subscription_required otherwise). */
  paid?: boolean;
  /** Honors the Idempotency-Key header (creating or spending POSTs). */
  idempotent?: boolean;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  response?: z.ZodType;
  successStatus?: number;
  /** The handler receives the body unparsed (signature-checked webhooks). */
  rawBody?: boolean;
  /** Content type of a non-JSON success response (documentation only). */
  produces?: string;
  /** Served by a response-streaming function. */
  streaming?: boolean;
}

export const defineEndpoint = <S extends EndpointSpec>(spec: S): S => spec;

export type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
