import { sqsWebhookQueue } from '#shared/adapters/sqsQueue';
import { withPorts } from '#shared/adapters/aws';
import { tokenKeyEncryption } from '#shared/adapters/kmsEncryption';
import { systemResolver } from '#shared/adapters/systemPorts';
import { createApiHandler } from '#shared/http/api';
import { HttpResponse, noContent } from '#shared/http/response';
import { outboundWebhookEndpoints as E } from '#shared/schemas/outboundWebhooks';
import {
  createEndpoint,
  pageEndpoints,
  readEndpoint,
  removeEndpoint,
  rotateEndpointSecret,
} from '#shared/domain/webhooks/endpoints';
import { listDeliveryPage, retryDelivery } from '#shared/domain/webhooks/deliveryLog';

export const handler = withPorts(
  'outbound',
  { webhookQueue: sqsWebhookQueue, hostResolver: systemResolver, encryption: tokenKeyEncryption },
  createApiHandler(E, {
    createWebhookEndpoint: async ({ user, body }) => createEndpoint(user.id, body),
    listWebhookEndpoints: async ({ user, query }) => pageEndpoints(user.id, query),
    getWebhookEndpoint: async ({ user, params }) => readEndpoint(user.id, params.endpoint_id),
    deleteWebhookEndpoint: async ({ user, params }) => {
      await removeEndpoint(user.id, params.endpoint_id);
      return noContent();
    },
    rotateWebhookSecret: async ({ user, params, event }) =>
      rotateEndpointSecret(user.id, params.endpoint_id, new Date(event.requestContext.requestTimeEpoch)),
    listWebhookDeliveries: async ({ user, query }) => listDeliveryPage(user.id, query),
    retryWebhookDelivery: async ({ user, params }) =>
      new HttpResponse(202, await retryDelivery(user.id, params.delivery_id)),
  }),
);
