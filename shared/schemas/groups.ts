import type { ApiGroup } from '#shared/adapters/functionWiring';
import type { EndpointSpec } from '#shared/schemas/endpoint';
import { accountEndpoints } from './account';
import { intelligenceEndpoints } from './intelligence';
import { growthEndpoints } from './growth';
import { moderationEndpoints } from './moderation';
import { platformEndpoints } from './moderationPlatforms';
import { xEndpoints } from './moderationX';
import { jobsEndpoints } from './jobs';
import { publicEndpoints, webhookEndpoints } from './public';
import { storageEndpoints } from './storage';
import { outboundWebhookEndpoints } from './outboundWebhooks';
import { mcpEndpoints } from './mcp';

/**
 * Which Lambda serves which endpoints: one function per group (functions/<group>/handler.ts).
 * The CDK stack, the local server and the OpenAPI document all read this table.
 * Areas register their endpoint specs here as they land; the groups themselves are the functions
 * the wiring names (ApiGroup, shared/adapters/functionWiring.ts), each listed here exactly once.
 */
export const API_GROUPS = {
  public: Object.values(publicEndpoints),
  webhooks: Object.values(webhookEndpoints),
  account: Object.values(accountEndpoints),
  storage: Object.values(storageEndpoints),
  intelligence: Object.values(intelligenceEndpoints),
  growth: Object.values(growthEndpoints),
  jobs: Object.values(jobsEndpoints),
  moderation: [
    ...Object.values(moderationEndpoints),
    ...Object.values(platformEndpoints),
    ...Object.values(xEndpoints),
  ],
  outbound: Object.values(outboundWebhookEndpoints),
  mcp: Object.values(mcpEndpoints),
} satisfies Record<ApiGroup, EndpointSpec[]>;

export type { ApiGroup };

export const allEndpoints = (): EndpointSpec[] => Object.values(API_GROUPS).flat();
