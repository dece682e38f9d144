/**
 * A recording stand-in for the part of Stripe's API the payments adapter calls (https://docs.stripe.com/api):
 * POST /v1/checkout/sessions, GET /v1/subscriptions/{id} and DELETE /v1/subscriptions/{id} (cancel), with
 * form-encoded bodies, Bearer keys and Stripe's error shape. Subscriptions are the ones a test declares;
 * cancelling one ends it, and cancelling it again is refused as Stripe refuses it.
 */
import { startJsonServer, type StandInRequest } from './httpStandIn';

export interface StandInSubscription {
  status: string;
  /** Seconds since the epoch, on the subscription's item as Stripe's API has put them since 2025-03-31. */
  current_period_start: number;
  current_period_end: number;
}

export interface StripeCall {
  method: string;
  path: string;
  form: Record<string, string>;
  idempotencyKey: string | undefined;
}

const stripeError = (status: number, code: string, message: string) => ({
  status,
  body: { error: { type: 'invalid_request_error', code, message } },
});

export async function startStripeStandIn(secretKey: string) {
  const calls: StripeCall[] = [];
  const subscriptions = new Map<string, StandInSubscription>();
  const subscriptionObject = (id: string, s: StandInSubscription) => ({
    id,
    object: 'subscription',
    status: s.status,
    items: {
      object: 'list',
      data: [
        {
          object: 'subscription_item',
          current_period_start: s.current_period_start,
          current_period_end: s.current_period_end,
        },
      ],
    },
  });
  const answer = (req: StandInRequest) => {
    const form = Object.fromEntries(new URLSearchParams(typeof req.body === 'string' ? req.body : ''));
    const header = req.headers['idempotency-key'];
    calls.push({
      method: req.method,
      path: req.path,
      form,
      idempotencyKey: typeof header === 'string' ? header : undefined,
    });
    if (req.headers.authorization !== `Bearer ${secretKey}`)
      return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
    if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
      const id = `cs_test_${calls.length}`;
      return { status: 200, body: { id, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${id}` } };
    }
    const match = /^\/v1\/subscriptions\/([A-Za-z0-9_]+)$/.exec(req.path);
    const id = match?.[1] ?? '';
    const subscription = subscriptions.get(id);
    if (!match || !subscription) return stripeError(404, 'resource_missing', `No such subscription: '${id}'`);
    if (req.method === 'GET') return { status: 200, body: subscriptionObject(id, subscription) };
    if (req.method === 'DELETE') {
      if (subscription.status === 'canceled')
        return stripeError(
          400,
          'subscription_canceled',
          'A canceled subscription can only update its cancellation_details and metadata.',
        );
      subscription.status = 'canceled';
      return { status: 200, body: subscriptionObject(id, subscription) };
    }
    return stripeError(404, 'resource_missing', 'Unrecognized request URL');
  };
  const server = await startJsonServer(answer);
  return {
    apiBase: server.url,
    calls,
    subscriptions,
    close: server.close,
  };
}
