import { useAwsPorts } from '../../shared/adapters/aws';
import { createApiHandler, route } from '../../shared/http/api';
import { growthEndpoints as E } from '../../shared/schemas/growth';
import { resolveGrowthGoal } from '../../shared/domain/growth/resolve';
import { quoteGrowthPlan } from '../../shared/domain/growth/quote';

useAwsPorts();

export const handler = createApiHandler([
  route(E.resolveGrowthGoal, async ({ user, body }) => resolveGrowthGoal(user.id, body)),
  route(E.quoteGrowthPlan, async ({ user, body }) => quoteGrowthPlan(user.id, body)),
]);
