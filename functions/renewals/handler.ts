import type { ScheduledEvent } from 'aws-lambda';
import { useAwsPorts } from '../../shared/adapters/aws';

useAwsPorts();

// Placeholder until the community-moderation issue lands: the schedule already invokes it.
export const handler = async (_event: ScheduledEvent): Promise<{ renewed: number }> => ({ renewed: 0 });
