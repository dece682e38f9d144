/**
 * When each Crisp website last got a note refusing an activation token. Any website can install the
 * operator's plugin and have its operators send `/activate <anything>`, and every note is a call out of
 * the plugin's daily quota, which every customer's moderation shares: such notes are claimed here
 * first, one per website per interval, with a conditional write so concurrent hooks cannot both send.
 */
import { defineEntity } from '#shared/store/entity';
import { claimOncePerInterval } from '#shared/store/intervalClaim';
import { crispRefusalNoteKey } from '#shared/store/keys';

const notes = defineEntity<{ websiteId: string; notedAt: string }>()({
  name: 'crispRefusalNote',
  key: (n: { websiteId: string }) => crispRefusalNoteKey(n.websiteId),
});

/** True when no refusal note went to the website within `intervalSeconds` before `at` (and claims this one). */
export const claimCrispRefusalNote = (websiteId: string, at: Date, intervalSeconds: number): Promise<boolean> =>
  claimOncePerInterval(
    (ttl) => notes.item({ websiteId, notedAt: at.toISOString() }, { ttl }),
    'notedAt',
    at,
    intervalSeconds,
  );
