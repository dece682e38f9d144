import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { identifyCaller } from '#shared/domain/accounts/callerIdentity';
import { AuthorizerCache } from './authorizerCache';
import { lambdaContext } from './lambdaContext';
import type { EndpointSpec } from '#shared/schemas/endpoint';
import { mostSpecificTemplate } from '#shared/http/pathTemplates';
import { dictionary } from '#shared/dictionary';
import {
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  ValidationError,
  errorProxyResult,
  logServerError,
  toErrorResponse,
} from '#shared/http/errors';
import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from '#shared/observability/logger';
import type { LocalResponseStream, StreamMetadata } from '#shared/http/streaming';
import { MAX_BODY_BYTES } from '#shared/http/api';
import { uuidv7 } from '#shared/ids';
import { API_GROUPS, type ApiGroup } from '#shared/schemas/groups';
import { answerClientErrors } from './clientErrors';
import { gateCuratedRoutes } from './curatedGate';
import { type ApiHandler, groupHandlers, streamingHandler } from './handlers';
import { usageMeter } from './meter';

interface CompiledRoute {
  spec: EndpointSpec;
  group: ApiGroup;
  pattern: RegExp;
  names: string[];
}

function compileRoutes(): CompiledRoute[] {
  return (Object.entries(API_GROUPS) as [ApiGroup, EndpointSpec[]][]).flatMap(([group, specs]) =>
    specs.map((spec) => {
      const names: string[] = [];
      const source = spec.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      return { spec, group, pattern: new RegExp(`^${source}$`), names };
    }),
  );
}

/**
 * A body too large to take is still read to its end and dropped, so the 413 keeps the connection
 * usable: a request left half-read would have its rest parsed as the next request (or the connection
 * reset under the answer). Node's request timeout bounds how long a sender can keep this going.
 */
function readBody(req: IncomingMessage): Promise<string> {
  // API Gateway would accept up to 10 MB; our own limit is enforced by the handler chain, so only stop runaway bodies here.
  const limit = MAX_BODY_BYTES * 4;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on('end', () =>
      size > limit ? reject(new PayloadTooLargeError(MAX_BODY_BYTES)) : resolve(Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
  });
}

/** A path parameter as API Gateway hands it over: percent-decoded, and a 400 when the escapes are malformed. */
function decodePathParameter(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ValidationError('The request path is invalid.', [
      { path: `path.${name}`, message: 'Malformed percent-encoding' },
    ]);
  }
}

/**
 * What the local server refused before a handler ran, as API Gateway would (no route, no key, a
 * malformed path) or because the first start's dataset is still loading: an answer, not a fault, so
 * one line with its status and code; only a 5xx (a bug, or AWS refusing work) logs the error with its stack.
 */
// Its own logger: the shared one carries the keys of whichever handler ran last (its caller among them).
const refusals = new Logger({ serviceName: SERVICE_NAME });

function sendError(res: ServerResponse, err: unknown, requestId: string, route: string): void {
  const mapped = toErrorResponse(err, requestId);
  if (mapped.status >= 500 && mapped.body.error.code !== 'dataset_loading') logServerError(requestId, err);
  else refusals.info('request refused', { requestId, route, status: mapped.status, code: mapped.body.error.code });
  const answer = errorProxyResult(mapped, requestId);
  res.writeHead(answer.statusCode, answer.headers as Record<string, string>);
  res.end(answer.body);
}

/**
 * The local API: each HTTP request becomes the REST API proxy event API Gateway sends (authorizer
 * context included) and goes to the same Lambda handler the stack deploys.
 */
export interface LocalApiOptions {
  /** While it returns an error, operations that read the curated dataset answer with it (first start). */
  curatedDatasetUnavailable?: () => Error | undefined;
}

/**
 * The handler of each group; while the first start can refuse curated reads, the MCP function's tools
 * reach their routes through the same refusal (they call the routes' handlers, not this server).
 */
function handlersFor(options: LocalApiOptions): Record<ApiGroup, () => Promise<ApiHandler>> {
  const unavailable = options.curatedDatasetUnavailable;
  if (!unavailable) return groupHandlers;
  let mcp: Promise<ApiHandler> | undefined;
  const gatedMcp = () =>
    (mcp ??= import('#functions/mcp/handler').then((m) => m.mcpHandler(gateCuratedRoutes(m.ROUTES, unavailable))));
  return { ...groupHandlers, mcp: gatedMcp };
}

export function createLocalApi(options: LocalApiOptions = {}): Server {
  const authorizerAnswers = new AuthorizerCache<NonNullable<Awaited<ReturnType<typeof identifyCaller>>>>();
  const routes = compileRoutes();
  const handlers = handlersFor(options);
  const server = createServer(async (req, res) => {
    // When the request arrived, as API Gateway stamps it (before authorisation and the body are read).
    const receivedAt = Date.now();
    const requestId = uuidv7();
    usageMeter.apiRequests += 1;
    // The access line's route, as the handler chain names it (the spec's path, never the caller's).
    let route = `${req.method ?? 'GET'} (unmatched)`;
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const method = (req.method ?? 'GET').toUpperCase();
      const matching = routes.filter((r) => r.pattern.test(url.pathname));
      const resource = mostSpecificTemplate(matching.map((r) => r.spec.path));
      const candidates = matching.filter((r) => r.spec.path === resource);
      const match = candidates.find((r) => r.spec.method === method);
      // A path the API has, asked with a method it does not declare there: 405 with the methods it does.
      if (!match && candidates.length)
        throw new MethodNotAllowedError([...new Set(candidates.map((r) => r.spec.method))].sort());
      if (!match) throw new NotFoundError('Endpoint');
      route = `${match.spec.method} ${match.spec.path}`;
      const unavailable = match.spec.readsCuratedData ? options.curatedDatasetUnavailable?.() : undefined;
      if (unavailable) throw unavailable;
      // The same pattern matched the path just above.
      const values = match.pattern.exec(url.pathname)?.slice(1);
      if (!values) throw new NotFoundError('Endpoint');
      const pathParameters = Object.fromEntries(match.names.map((n, i) => [n, decodePathParameter(n, values[i])]));

      // Header and query names are the caller's: `constructor` or `__proto__` must be plain keys.
      const headers = dictionary<string>();
      const multiValueHeaders = dictionary<string[]>();
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const [name, value] = [req.rawHeaders[i], req.rawHeaders[i + 1]];
        headers[name] = value;
        multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
      }
      const query = dictionary<string>();
      const multiQuery = dictionary<string[]>();
      for (const [k, v] of url.searchParams) {
        query[k] = v;
        multiQuery[k] = [...(multiQuery[k] ?? []), v];
      }

      let authorizer: Record<string, string> | null = null;
      if (match.spec.auth === 'api_key') {
        const authHeader = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
        const caller = await authorizerAnswers.get(authHeader, (header) =>
          usageMeter.invoke('authorizer', () => identifyCaller(header)),
        );
        if (!caller) throw new UnauthorizedError();
        authorizer = { principalId: caller.userId, userId: caller.userId, keyHash: caller.keyHash };
      }

      const body = await readBody(req);
      const event: APIGatewayProxyEvent = {
        resource: match.spec.path,
        path: url.pathname,
        httpMethod: method,
        headers,
        multiValueHeaders,
        queryStringParameters: Object.keys(query).length ? query : null,
        multiValueQueryStringParameters: Object.keys(multiQuery).length ? multiQuery : null,
        pathParameters: match.names.length ? pathParameters : null,
        stageVariables: null,
        body: body.length ? body : null,
        isBase64Encoded: false,
        requestContext: {
          accountId: '000000000000',
          apiId: 'local',
          authorizer,
          httpMethod: method,
          identity: {
            sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
            userAgent: headers['user-agent'] ?? null,
          } as APIGatewayProxyEvent['requestContext']['identity'],
          path: url.pathname,
          protocol: 'HTTP/1.1',
          requestId,
          requestTimeEpoch: receivedAt,
          resourceId: 'local',
          resourcePath: match.spec.path,
          stage: 'local',
          // As API Gateway does, the domain is the server's own, not the caller's Host header.
          domainName: `127.0.0.1:${req.socket.localPort}`,
        },
      };

      if (match.spec.streaming) {
        const handler = await streamingHandler();
        await usageMeter.invoke('jobs-events', () =>
          handler(event, localResponseStream(res), lambdaContext('jobs-events', requestId)),
        );
        return;
      }
      const handler = await handlers[match.group]();
      const result = await usageMeter.invoke(match.group, () => handler(event, lambdaContext(match.group, requestId)));
      res.writeHead(result.statusCode, { ...(result.headers as Record<string, string>) });
      res.end(result.body);
    } catch (err) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendError(res, err, requestId, route);
    }
  });
  answerClientErrors(server);
  return server;
}

/** A writable that behaves like Lambda's HttpResponseStream: metadata first, then body bytes. */
function localResponseStream(res: ServerResponse): LocalResponseStream {
  const stream = new Writable({
    write(chunk, _enc, callback) {
      if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(chunk, callback);
    },
    final(callback) {
      if (!res.headersSent) res.writeHead(200);
      res.end(callback);
    },
  }) as LocalResponseStream;
  stream.setMetadata = (metadata: StreamMetadata) => {
    res.writeHead(metadata.statusCode, metadata.headers);
    res.flushHeaders();
  };
  res.on('close', () => stream.destroy());
  return stream;
}

export async function listen(server: Server, port: number, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as { port: number }).port;
}
