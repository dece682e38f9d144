import { installPorts } from '../../shared/adapters/ports';
import { RecordingEvents } from '../../shared/adapters/events';
import { renewDueCommunities } from '../../shared/domain/moderation/renewals';
import { parseOptions } from './options';

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
  installPorts({ events });
  const report = await renewDueCommunities(at);
  for (const event of events.published) console.log(`${event.type} ${JSON.stringify(event.detail)}`);
  console.log(
    `Sweep at ${report.at}: ${report.due} due, ${report.renewed} renewed, ${report.suspended} suspended, ${report.still_suspended} still suspended, ${report.expired} expired, ${report.skipped} skipped, ${report.failed} failed.`,
  );
}
