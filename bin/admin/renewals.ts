import { installPorts } from '../../shared/adapters/ports';
import { RecordingEvents } from '../../shared/adapters/events';
import { renewDueCommunities } from '../../shared/domain/moderation/renewals';
import { flag } from './flags';

/**
 * `renewals [--at ISO_TIMESTAMP]`: one sweep, now, of every community due by that instant (default:
 * now). The clock is left alone: charges, grant expiry and ledger dates are the real present.
 */
export async function renewalsCommand(args: string[]): Promise<void> {
  const atFlag = flag(args, 'at');
  const at = atFlag === undefined ? new Date() : new Date(atFlag);
  if (Number.isNaN(at.getTime()) || (atFlag !== undefined && !/^\d{4}-\d{2}-\d{2}T/.test(atFlag))) throw new Error('--at must be an ISO 8601 timestamp, e.g. 2026-12-22T06:00:00.000Z');
  // Domain events are only printed here, as there is no bus to publish to.
  const events = new RecordingEvents();
  installPorts({ events });
  const report = await renewDueCommunities(at);
  for (const event of events.published) console.log(`${event.type} ${JSON.stringify(event.detail)}`);
  console.log(
    `Sweep at ${report.at}: ${report.due} due, ${report.renewed} renewed, ${report.suspended} suspended, ${report.still_suspended} still suspended, ${report.expired} expired, ${report.skipped} skipped, ${report.failed} failed.`,
  );
}
