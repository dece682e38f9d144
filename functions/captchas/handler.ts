import type { Context, ScheduledEvent } from 'aws-lambda';
import { DELIVERY_CORE } from '#shared/domain/moderation/deliveryCore';
import { withPorts } from '#shared/adapters/aws';
import { sqsPipelineQueue } from '#shared/adapters/sqsQueue';
import { logger } from '#shared/observability/logger';
import { removeUnverifiedMembers } from '#shared/platforms/telegram/captcha';
import { liftEndedCrispMutes } from '#shared/platforms/crisp/muteEnds';

/**
 * EventBridge runs this every minute (the local server every 15 seconds): new members whose captcha
 * deadline passed are removed, so a 2-minute timeout holds within a minute, and Crisp conversations
 * whose mute is over are unblocked. Its own schedule keeps the renewal sweep at its 5 minutes, and its
 * own entry keeps the sweep's code out of its bundle.
 */
export const handler = withPorts(
  'captchas',
  { queue: sqsPipelineQueue },
  async (_event: ScheduledEvent, context?: Context): Promise<{ removed: number; crisp_mutes_lifted: number }> => {
    if (context) logger.addContext(context);
    const [report, crisp] = await Promise.all([
      removeUnverifiedMembers(DELIVERY_CORE),
      liftEndedCrispMutes(DELIVERY_CORE),
    ]);
    if (report.removed > 0) logger.info('captcha timeouts', { ...report });
    if (crisp.lifted > 0) logger.info('Crisp mutes lifted', { ...crisp });
    return { ...report, crisp_mutes_lifted: crisp.lifted };
  },
);
