import { installPorts } from '#shared/adapters/ports';
import { RecordingEvents } from '#shared/adapters/domainEvents';
import { renewDueCommunities } from '#shared/domain/moderation/renewals';
import type { QueuePort } from '#shared/adapters/queue';
import { SystemResolver } from '#shared/adapters/hostResolver';
import { handleWebhookMessage } from '#shared/domain/webhooks/worker';
import { parseOptions } from './options';

/**
 * The webhook events a sweep writes are fanned out and sent before the command exits. A retry waits
 * for later: a delayed message is left to the server's scheduled outbox sweep (the delivery stays
 * pending in the due index), as this process will be gone by then.
 */
const sendNow: QueuePort = {
  async send(messages) {
    for (const m of messages) if (!m.delaySeconds) await handleWebhookMessage(m.body);
  },
};

/**
 * `renewals [--at ISO_TIMESTAMP]`: one sweep, now, of every community due by that instant (default:
 * now). The clock is left alone: charges, grant expiry and ledger dates are the real present.
 */
export function renewalsCommand(args: string[]): () => Promise<void> {
  const { at: atFlag } = parseOptions('renewals', args);
  return () => sweep(atFlag === undefined ? new Date() : new Date(atFlag));
}

async function sweep(at: Date): Promise<void> {
  // Domain events are only printed here, as there is no bus to publish to.
  const events = new RecordingEvents();
  installPorts({ events, webhookQueue: sendNow, hostResolver: new SystemResolver() });
  const report = await renewDueCommunities(at);
  for (const event of events.published) console.log(`${event.type} ${JSON.stringify(event.detail)}`);
  console.log(
    `Sweep at ${report.at}: ${report.due} due, ${report.renewed} renewed, ${report.suspended} suspended, ${report.still_suspended} still suspended, ${report.expired} expired, ${report.skipped} skipped, ${report.failed} failed.`,
  );
}
