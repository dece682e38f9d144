import type { Context, ScheduledEvent } from 'aws-lambda';
import { withPorts } from '#shared/adapters/aws';
import { logger } from '#shared/observability/logger';
import { type RefreshReport, refreshPhishingList } from '#shared/domain/moderation/phishingListRefresh';

/**
 * EventBridge runs this every 6 hours: the known-phishing-domain list is downloaded from its public
 * source (PHISHING_LIST_URL) and written to the table, where moderation reads it. Its own function keeps
 * the package's copy of the list (its fallback) out of every other bundle.
 */
export const handler = withPorts(
  'phishing-refresh',
  {},
  async (_event: ScheduledEvent, context?: Context): Promise<RefreshReport> => {
    if (context) logger.addContext(context);
    const report = await refreshPhishingList();
    if (report.reason) logger.warn('phishing list download not used', { ...report });
    else if (report.changed) logger.info('phishing list updated', { ...report });
    return report;
  },
);
