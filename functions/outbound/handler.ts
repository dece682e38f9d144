import { useAwsPorts } from '../../shared/adapters/aws';
import { useWebhookQueue } from '../../shared/adapters/sqsQueue';
import { createApiHandler, route } from '../../shared/http/api';
import { HttpResponse, noContent } from '../../shared/http/response';
import { outboundWebhookEndpoints as E } from '../../shared/schemas/outboundWebhooks';
import { createEndpoint, pageEndpoints, readEndpoint, removeEndpoint, rotateEndpointSecret } from '../../shared/domain/webhooks/endpoints';
import { pageDeliveries, retryDelivery } from '../../shared/domain/webhooks/deliveries';

useAwsPorts();
useWebhookQueue();

export const handler = createApiHandler([
  route(E.createWebhookEndpoint, async ({ user, body }) => createEndpoint(user.id, body)),
  route(E.listWebhookEndpoints, async ({ user, query }) => pageEndpoints(user.id, query)),
  route(E.getWebhookEndpoint, async ({ user, params }) => readEndpoint(user.id, params.endpoint_id)),
  route(E.deleteWebhookEndpoint, async ({ user, params }) => (await removeEndpoint(user.id, params.endpoint_id), noContent())),
  route(E.rotateWebhookSecret, async ({ user, params }) => rotateEndpointSecret(user.id, params.endpoint_id)),
  route(E.listWebhookDeliveries, async ({ user, query }) => pageDeliveries(user.id, query)),
  route(E.retryWebhookDelivery, async ({ user, params }) => new HttpResponse(202, await retryDelivery(user.id, params.delivery_id))),
]);
