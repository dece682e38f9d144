import { dispatchEvent } from './dispatch';
import { deliverOnce } from './deliveryAttempt';
import { parseWebhookMessage, type WebhookMessage } from './messageSchema';

const HANDLERS: { [K in WebhookMessage['kind']]: (m: Extract<WebhookMessage, { kind: K }>) => Promise<unknown> } = {
  'webhook.dispatch': (m) => dispatchEvent(m.user_id, m.event_id),
  'webhook.deliver': (m) => deliverOnce(m.user_id, m.delivery_id, m.manual === true),
};

/** One webhook queue record; a malformed one throws so it ends in the dead-letter queue, not silently. */
export async function handleWebhookMessage(body: string): Promise<void> {
  const msg = parseWebhookMessage(body);
  if (!msg) throw new Error('Unrecognised webhook queue message');
  await (HANDLERS[msg.kind] as (m: WebhookMessage) => Promise<unknown>)(msg);
}
