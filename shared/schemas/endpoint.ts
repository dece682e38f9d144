import type * as z from '#shared/zod';

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
  /** Longer prose for the document; the summary stands in when absent. */
  description?: string;
  tag: string;
  /** `none`: public. `api_key`: bearer key through the authorizer. */
  auth: 'api_key' | 'none';
  /**
   * A public operation whose caller proves itself with a shared secret in a header (a platform's
   * webhook) or a signature over its body: checked by name (shared/http/chain/authentication.ts) before
   * any input is validated or acted on, 401 otherwise.
   */
  callerSecret?: 'telegram_webhook_secret' | 'crisp_hook_signature';
  /** Needs an active pro subscription (403 subscription_required otherwise). */
  paid?: boolean;
  /** Honors the Idempotency-Key header (creating or spending POSTs). */
  idempotent?: boolean;
  /** Its answer shows a secret once: the answer kept for an idempotent replay is sealed (its function has the encryption port). */
  sealsReplay?: boolean;
  body?: z.core.$ZodType;
  query?: z.core.$ZodType;
  params?: z.core.$ZodType;
  response?: z.core.$ZodType;
  successStatus?: number;
  /** The handler receives the body unparsed (signature-checked webhooks). */
  rawBody?: boolean;
  /**
   * A place in the JSON body (property names from the root) whose content problems (a reserved
   * property name, a value that cannot be stored as sent) the route answers itself, in its own
   * protocol, instead of the chain's 400: the value there becomes {} and the route gets the problem
   * as `bodyIssue` (MCP, whose tool arguments are answered as a tool's error, not a transport one).
   */
  ownsBodyIssuesAt?: readonly string[];
  /** Content type of a non-JSON success response (documentation only). */
  produces?: string;
  /** Other media types of the success response beside JSON (the default), e.g. text/csv of an export. */
  alternateMedia?: Record<string, { description: string }>;
  /** Served by a response-streaming function. */
  streaming?: boolean;
  /** SSE: the data schema of each event name the stream sends. */
  events?: Record<string, z.core.$ZodType>;
  /** Request headers the operation reads besides Authorization and Idempotency-Key (signatures, Accept). */
  headers?: HeaderParam[];
  /**
   * Error statuses the operation itself can answer beyond those implied by the spec (400 for input,
   * 401 for a key, 403 for paid, 409 for Idempotency-Key, 413 for a body, 429 and 500 always).
   */
  errors?: ErrorStatus[];
  /**
   * The operation speaks JSON-RPC 2.0 (MCP): the statuses it answers with a JSON-RPC error response
   * instead of ErrorBody, each with what it means there. The chain answers its refusals of such an
   * operation's body that way too (-32700 when it does not parse, -32600 otherwise), as the protocol does.
   */
  jsonRpcErrors?: Partial<Record<ErrorStatus, string>>;
  /** Reads the curated dataset: the local server answers 503 dataset_loading while its first start loads it. */
  readsCuratedData?: boolean;
}

export type ErrorStatus =
  | 400
  | 401
  | 402
  | 403
  | 404
  | 405
  | 406
  | 409
  | 410
  | 413
  | 415
  | 422
  | 429
  | 431
  | 500
  | 502
  | 503;

export interface HeaderParam {
  name: string;
  required: boolean;
  description: string;
  schema: z.core.$ZodType;
}

export const defineEndpoint = <S extends EndpointSpec>(spec: S): S => spec;

export type Infer<T> = T extends z.core.$ZodType ? z.output<T> : undefined;
