import * as z from '#shared/zod';
import { defineEndpoint } from '#shared/schemas/endpoint';

const tag = 'Service';

export const publicEndpoints = {
  health: defineEndpoint({
    operationId: 'health',
    method: 'GET',
    path: '/api/v1/health',
    summary: 'Liveness',
    tag,
    auth: 'none',
    description: 'Answers 200 with the server time while the API is up; no key needed.',
    response: z.object({ status: z.literal('ok'), time: z.string() }),
  }),
  openapi: defineEndpoint({
    operationId: 'openapi',
    method: 'GET',
    path: '/api/v1/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    tag,
    auth: 'none',
    response: z.record(z.string(), z.unknown()),
  }),
  console: defineEndpoint({
    operationId: 'console',
    method: 'GET',
    path: '/api/v1/console',
    summary: 'The web console (an HTML page; it asks for your API key)',
    tag,
    auth: 'none',
    description:
      'A page showing your balance, credit usage, jobs, moderation, stored results and webhooks. Loading it needs no key; every call it makes sends the key you paste in the Authorization header.',
    produces: 'text/html',
  }),
  consoleScript: defineEndpoint({
    operationId: 'consoleScript',
    method: 'GET',
    path: '/api/v1/console/console.js',
    summary: "The web console's script",
    tag,
    auth: 'none',
    produces: 'text/javascript',
  }),
  consoleStyles: defineEndpoint({
    operationId: 'consoleStyles',
    method: 'GET',
    path: '/api/v1/console/console.css',
    summary: "The web console's styles",
    tag,
    auth: 'none',
    produces: 'text/css',
  }),
};

export const webhookEndpoints = {
  stripeWebhook: defineEndpoint({
    operationId: 'stripeWebhook',
    method: 'POST',
    path: '/api/v1/webhooks/stripe',
    summary: 'Payment processor webhook (Stripe-Signature checked)',
    tag: 'Webhooks',
    auth: 'none',
    rawBody: true,
    headers: [
      {
        name: 'Stripe-Signature',
        required: true,
        description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "{t}.{body}">; 5-minute tolerance. Missing or wrong: 400',
        schema: z.string().check(z.minLength(1)),
      },
    ],
    response: z.object({ received: z.boolean(), duplicate: z.boolean() }),
  }),
  localCheckoutPage: defineEndpoint({
    operationId: 'localCheckoutPage',
    method: 'GET',
    path: '/api/v1/checkout/{session_id}',
    summary: 'Local checkout page (only when Stripe is not configured)',
    tag: 'Webhooks',
    auth: 'none',
    params: z.strictObject({ session_id: z.string().check(z.regex(/^cs_local_[0-9a-f-]{36}$/)) }),
    produces: 'text/html',
  }),
  localCheckoutPay: defineEndpoint({
    operationId: 'localCheckoutPay',
    method: 'POST',
    path: '/api/v1/checkout/{session_id}/pay',
    summary: 'Local checkout: pay, which sends the signed webhook Stripe would',
    tag: 'Webhooks',
    auth: 'none',
    errors: [422],
    params: z.strictObject({ session_id: z.string().check(z.regex(/^cs_local_[0-9a-f-]{36}$/)) }),
    produces: 'text/html',
  }),
};
