/**
 * A delivery worker in a process of its own, for tests that kill one in the middle of a platform call
 * (kill -9): runs the named deliveries of one community with the local ports, against the table and
 * the platform settings of the environment it was started with.
 */
import { installLocalPorts } from '#bin/local/runtime';
import { runDelivery } from '#shared/domain/moderation/platformCallRunner';

const [communityId, ...deliveryIds] = process.argv.slice(2);
installLocalPorts();
await Promise.all(deliveryIds.map((id) => runDelivery(communityId, id)));
process.exit(0);
