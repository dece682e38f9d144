import type { EventBridgeClient, EventBridgeClientConfig } from '@aws-sdk/client-eventbridge';
import { requireEnv } from '#shared/config/env';
import type { DomainEvent, EventsPort } from './events';
import { setDefaultPorts } from './ports';
import { traced } from '#shared/observability/tracer';

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
    return (this.sdk ??= import('./sdk/eventBridge').then((module) => ({ client: traced(new module.EventBridgeClient(this.config)), module })));
  }

  async publish(events: DomainEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += 10) await this.putBatch(events.slice(i, i + 10));
  }

  private async putBatch(batch: DomainEvent[]): Promise<void> {
    const { client, module } = await this.load();
    let pending = batch.map((e) => ({ EventBusName: this.busName, Source: 'outreach-intelligence', DetailType: e.type, Detail: JSON.stringify(e.detail) }));
    let errors: string[] = [];
    for (let attempt = 1; attempt <= PUT_EVENTS_ATTEMPTS && pending.length; attempt++) {
      if (attempt > 1) await new Promise((r) => setTimeout(r, this.retryDelayMs * 2 ** (attempt - 2)));
      const out = await client.send(new module.PutEventsCommand({ Entries: pending }));
      if (!out.FailedEntryCount) return;
      // Result entries are in request order; a refused one carries an ErrorCode.
      const refused = (out.Entries ?? []).map((r, j) => ({ r, j })).filter(({ r }) => r.ErrorCode);
      if (!refused.length) throw new Error(`EventBridge refused ${out.FailedEntryCount} of ${batch.length} events without naming them`);
      errors = refused.map(({ r }) => `${r.ErrorCode}: ${r.ErrorMessage ?? ''}`.trim());
      pending = refused.map(({ j }) => pending[j]);
    }
    if (pending.length) throw new Error(`EventBridge refused ${pending.length} of ${batch.length} events: ${[...new Set(errors)].join('; ')}`);
  }
}

/**
 * Registers EventBridge as the events port. Only the functions whose catalogue entry
 * (infra/functionCatalog.ts) has `events` call this, so the other bundles carry no EventBridge client.
 */
export function useEventBridgeEvents(): void {
  setDefaultPorts({ events: () => new EventBridgeEvents(requireEnv('EVENT_BUS_NAME')) });
}
