import { afterEach, describe, expect, it } from 'vitest';
import { EventBridgeEvents } from '#shared/adapters/eventBridgeEvents';
import { startAwsStandIn } from '#test/support/awsStandIn';

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
let standIn: Awaited<ReturnType<typeof startAwsStandIn>> | undefined;
afterEach(async () => standIn?.close());

const events = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ type: 'job.completed', detail: { job_id: `job-${i}` } }));

describe('EventBridge publisher', () => {
  it('sends again only the entries EventBridge refused, then succeeds', async () => {
    standIn = await startAwsStandIn({
      'AWSEvents.PutEvents': [
        {
          FailedEntryCount: 1,
          Entries: [{ EventId: 'a' }, { ErrorCode: 'InternalFailure', ErrorMessage: 'try again' }, { EventId: 'c' }],
        },
        { FailedEntryCount: 0, Entries: [{ EventId: 'b' }] },
      ],
    });
    const publisher = new EventBridgeEvents('bus', { endpoint: standIn.endpoint, region: 'us-east-1', credentials }, 0);
    await publisher.publish(events(3));
    expect(standIn.calls.map((c) => c.body.Entries.map((e: any) => JSON.parse(e.Detail).job_id))).toEqual([
      ['job-0', 'job-1', 'job-2'],
      ['job-1'],
    ]);
    expect(standIn.calls[1].body.Entries[0]).toMatchObject({
      EventBusName: 'bus',
      Source: 'outreach-intelligence',
      DetailType: 'job.completed',
    });
  });

  it('throws, naming the error codes, when entries are still refused after the retries', async () => {
    const refused = { FailedEntryCount: 1, Entries: [{ ErrorCode: 'ThrottlingException', ErrorMessage: 'slow down' }] };
    standIn = await startAwsStandIn({ 'AWSEvents.PutEvents': [refused, refused, refused] });
    const publisher = new EventBridgeEvents('bus', { endpoint: standIn.endpoint, region: 'us-east-1', credentials }, 0);
    await expect(publisher.publish(events(1))).rejects.toThrow(/1 of 1 events.*ThrottlingException/);
    expect(standIn.calls).toHaveLength(3);
  });
});
