import type { Context, ScheduledEvent } from 'aws-lambda';
import { withPorts } from '#shared/adapters/aws';
import { sqsPipelineQueue } from '#shared/adapters/sqsQueue';
import { logger } from '#shared/observability/logger';
import { fanOutPolls, type FanOutReport } from '#shared/domain/moderation/pollFanOut';

/**
 * EventBridge runs this every minute (the local server on its own minute): each polled platform's
 * bound communities are queued in shards, and the worker polls each shard (polling.ts).
 */
export const handler = withPorts(
  'polls',
  { queue: sqsPipelineQueue },
  async (_event: ScheduledEvent, context?: Context): Promise<FanOutReport> => {
    if (context) logger.addContext(context);
    return fanOutPolls();
  },
);
