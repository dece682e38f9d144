/** Domain events (job.completed, community.renewed, ...) for the operator's own consumers. */
export interface DomainEvent {
  type: string;
  detail: Record<string, unknown>;
}

export interface EventsPort {
  publish(events: DomainEvent[]): Promise<void>;
}

/** Local: keeps what was published, so tests can assert on it. */
export class RecordingEvents implements EventsPort {
  readonly published: DomainEvent[] = [];
  async publish(events: DomainEvent[]): Promise<void> {
    this.published.push(...events);
  }
}
