import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedAwsCall {
  /** The X-Amz-Target header, e.g. AWSEvents.PutEvents or AmazonSQS.SendMessageBatch. */
  target: string;
  body: any;
}

/**
 * A scripted answer: the response body, or a function of the request body that returns it (for
 * answers that depend on what was sent, such as SQS's MD5 digests of the bodies it took).
 */
export type AwsAnswer = unknown | ((request: any) => unknown);

/**
 * A recording stand-in for AWS services that speak the JSON protocol (EventBridge, SQS): it answers
 * each call with the next scripted answer for its target (or `{}`), so the real SDK-based adapters
 * can be run against it and the exact calls asserted.
 */
export async function startAwsStandIn(script: Record<string, AwsAnswer[]>) {
  const calls: RecordedAwsCall[] = [];
  const answers = new Map(Object.entries(script).map(([target, list]) => [target, [...list]]));
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const body = JSON.parse(raw || '{}');
      calls.push({ target, body });
      const scripted = answers.get(target)?.shift() ?? {};
      const answer = typeof scripted === 'function' ? scripted(body) : scripted;
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
