/** A handler result that is not a plain JSON 200 (another status, headers, CSV, HTML). */
export class HttpResponse {
  constructor(
    readonly status: number,
    readonly body: unknown = undefined,
    readonly headers: Record<string, string> = {},
    /** When set, `body` is a string sent as is with this content type. */
    readonly contentType?: string,
  ) {}
}

export const noContent = () => new HttpResponse(204);
