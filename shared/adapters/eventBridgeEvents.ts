import type { EventBridgeClient, EventBridgeClientConfig } from '@aws-sdk/client-eventbridge';
import { requiredSetting } from '#shared/config/config';
import type { DomainEvent, EventsPort } from './domainEvents';
import { sendResendingRefused } from './resendRefused';

const PUT_EVENTS_ATTEMPTS = 3;

/**
 * EventBridge answers 200 even when it refuses some entries (FailedEntryCount), so refused entries
 * are sent again, and still-refused ones raise an error instead of vanishing. The SDK client is
 * imported on the first publish, not when the function loads.
 */
export class EventBridgeEvents implements EventsPort {
  private sdk?: Promise<{ client: EventBridgeClient; module: typeof import('./sdk/eventBridge') }>;
  constructor(
    private readonly busName: string,
    private readonly config: EventBridgeClientConfig = {},
    private readonly retryDelayMs = 200,
  ) {}

  private load() {
    this.sdk ??= import('./sdk/eventBridge').then((module) => ({
      client: new module.EventBridgeClient(this.config),
      module,
    }));
    return this.sdk;
  }

  async publish(events: DomainEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += 10) await this.putBatch(events.slice(i, i + 10));
  }

  private async putBatch(batch: DomainEvent[]): Promise<void> {
    const { client, module } = await this.load();
    const entries = batch.map((e) => ({
      EventBusName: this.busName,
      Source: 'outreach-intelligence',
      DetailType: e.type,
      Detail: JSON.stringify(e.detail),
    }));
    await sendResendingRefused(
      entries,
      async (pending) => {
        const out = await client.send(new module.PutEventsCommand({ Entries: pending }));
        if (!out.FailedEntryCount) return [];
        // Result entries are in request order; a refused one carries an ErrorCode.
        const refused = (out.Entries ?? []).flatMap((r, index) =>
          r.ErrorCode ? [{ index, error: `${r.ErrorCode}: ${r.ErrorMessage ?? ''}`.trim(), retryable: true }] : [],
        );
        if (!refused.length)
          throw new Error(
            `EventBridge refused ${out.FailedEntryCount} of ${pending.length} events without naming them`,
          );
        return refused;
      },
      { attempts: PUT_EVENTS_ATTEMPTS, delayMs: this.retryDelayMs, noun: 'events', service: 'EventBridge' },
    );
  }
}

/** EventBridge as the events port, for the functions wired to `events` (the others' bundles carry no EventBridge client). */
export const eventBridgeEvents = (): EventsPort => new EventBridgeEvents(requiredSetting('EVENT_BUS_NAME'));
