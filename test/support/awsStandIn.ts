import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedAwsCall {
  /** The X-Amz-Target header, e.g. AWSEvents.PutEvents or AmazonSQS.SendMessageBatch. */
  target: string;
  body: any;
}

/**
 * A recording stand-in for AWS services that speak the JSON protocol (EventBridge, SQS): it answers
 * each call with the next scripted answer for its target (or `{}`), so the real SDK-based adapters
 * can be run against it and the exact calls asserted.
 */
export async function startAwsStandIn(script: Record<string, unknown[]>) {
  const calls: RecordedAwsCall[] = [];
  const answers = new Map(Object.entries(script).map(([target, list]) => [target, [...list]]));
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      calls.push({ target, body: JSON.parse(raw || '{}') });
      const answer = answers.get(target)?.shift() ?? {};
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
