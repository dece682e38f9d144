import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SqsQueue } from '#shared/adapters/sqsQueue';
import { startAwsStandIn } from '#test/support/awsStandIn';

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/pipeline';
let standIn: Awaited<ReturnType<typeof startAwsStandIn>> | undefined;
afterEach(async () => standIn?.close());

const messages = (n: number) => Array.from({ length: n }, (_, i) => ({ body: JSON.stringify({ job: `job-${i}` }) }));
const jobsOf = (call: { body: any }) => call.body.Entries.map((e: any) => JSON.parse(e.MessageBody).job);
const queueAt = (endpoint: string) => new SqsQueue(QUEUE_URL, { endpoint, region: 'us-east-1', credentials }, 0);

type Failure = { SenderFault: boolean; Code: string; Message: string };
/**
 * SendMessageBatch's answer, as SQS gives it: every entry taken (with the MD5 of its body, which the
 * SDK checks) except those named in `failed` by Id.
 */
const batchAnswer =
  (failed: Record<string, Failure> = {}) =>
  (request: { Entries: { Id: string; MessageBody: string }[] }) => ({
    Successful: request.Entries.filter((e) => !Object.hasOwn(failed, e.Id)).map((e) => ({
      Id: e.Id,
      MessageId: `m-${e.Id}`,
      MD5OfMessageBody: createHash('md5').update(e.MessageBody).digest('hex'),
    })),
    Failed: Object.entries(failed).map(([Id, f]) => ({ Id, ...f })),
  });

describe('SQS queue', () => {
  it('sends in batches of ten, each entry named by its position', async () => {
    standIn = await startAwsStandIn({ 'AmazonSQS.SendMessageBatch': [batchAnswer(), batchAnswer()] });
    await queueAt(standIn.endpoint).send([...messages(11), { body: '{"job":"job-11"}', delaySeconds: 30 }]);
    expect(standIn.calls.map((c) => c.target)).toEqual(['AmazonSQS.SendMessageBatch', 'AmazonSQS.SendMessageBatch']);
    expect(standIn.calls[0].body.QueueUrl).toBe(QUEUE_URL);
    expect(standIn.calls[0].body.Entries.map((e: any) => e.Id)).toEqual('0123456789'.split(''));
    expect(standIn.calls[1].body.Entries).toEqual([
      { Id: '0', MessageBody: '{"job":"job-10"}' },
      { Id: '1', MessageBody: '{"job":"job-11"}', DelaySeconds: 30 },
    ]);
  });

  it('sends again only the entries SQS refused, so the others are not delivered twice', async () => {
    const internal = { SenderFault: false, Code: 'InternalError', Message: 'try again' };
    standIn = await startAwsStandIn({
      'AmazonSQS.SendMessageBatch': [batchAnswer({ '1': internal, '3': internal }), batchAnswer()],
    });
    await queueAt(standIn.endpoint).send(messages(4));
    expect(standIn.calls.map(jobsOf)).toEqual([
      ['job-0', 'job-1', 'job-2', 'job-3'],
      ['job-1', 'job-3'],
    ]);
  });

  it('throws, naming the codes, when entries are still refused after the retries', async () => {
    const refused = batchAnswer({ '0': { SenderFault: false, Code: 'ServiceUnavailable', Message: 'busy' } });
    standIn = await startAwsStandIn({ 'AmazonSQS.SendMessageBatch': [refused, refused, refused] });
    await expect(queueAt(standIn.endpoint).send(messages(1))).rejects.toThrow(
      /SQS refused 1 of 1 messages: ServiceUnavailable: busy/,
    );
    expect(standIn.calls).toHaveLength(3);
  });

  it('does not send again an entry SQS says is itself at fault', async () => {
    standIn = await startAwsStandIn({
      'AmazonSQS.SendMessageBatch': [
        batchAnswer({ '1': { SenderFault: true, Code: 'InvalidParameterValue', Message: 'too long' } }),
      ],
    });
    await expect(queueAt(standIn.endpoint).send(messages(2))).rejects.toThrow(
      /SQS refused 1 of 2 messages: InvalidParameterValue/,
    );
    expect(standIn.calls).toHaveLength(1);
  });
});
