import { paymentsPort } from '#shared/adapters/payments';
import { withPorts } from '#shared/adapters/aws';
import { awsSecrets } from '#shared/adapters/secrets';
import { createApiHandler } from '#shared/http/api';
import { HttpResponse } from '#shared/http/response';
import { webhookEndpoints as E } from '#shared/schemas/public';
import { applyPaymentEvent, verifyPaymentEvent } from '#shared/domain/billing/webhooks';
import { localCheckoutPage, payLocalCheckout } from '#shared/domain/billing/localCheckout';

export const handler = withPorts(
  'webhooks',
  { payments: paymentsPort, secrets: awsSecrets },
  createApiHandler(E, {
    stripeWebhook: async ({ rawBody, headers }) =>
      applyPaymentEvent(await verifyPaymentEvent(rawBody, headers['stripe-signature'])),
    localCheckoutPage: async ({ params }) =>
      new HttpResponse(200, await localCheckoutPage(params.session_id), {}, 'text/html; charset=utf-8'),
    localCheckoutPay: async ({ params }) =>
      new HttpResponse(200, await payLocalCheckout(params.session_id), {}, 'text/html; charset=utf-8'),
  }),
);
