import { defineConfig } from 'vitest/config';

/**
 * Two tiers (CONTRIBUTING.md says which a new test belongs to).
 *
 * The unit tier, `npm run test:unit`, is the files listed here: they need no table and start no process
 * (pure domain rules, schemas, the layout checks, adapters against stand-ins on loopback). It starts no
 * DynamoDB Local, and test/support/noTable.ts fails any request to the table at once with a message
 * naming this list. Its files share their worker's modules (no isolation between files, three times
 * faster), so a unit test restores what it changes: environment variables, installed ports.
 *
 * The stack tier is every other file, so a new file not listed here runs where it always could: it starts
 * DynamoDB Local, seeds it once for the run (test/support/globalSetup.ts) and drives the handlers, the
 * local server, the commands and the browser. `npm test` runs the unit tier first, then the stack tier.
 */
export const UNIT_TESTS = [
  'test/adapters/encryption.test.ts',
  'test/adapters/enrichment/hunter.test.ts',
  'test/adapters/enrichment/zeroBounce.test.ts',
  'test/adapters/eventBridgeEvents.test.ts',
  'test/adapters/secrets.test.ts',
  'test/adapters/sqsQueue.test.ts',
  'test/adapters/stripeCheckout.test.ts',
  'test/adapters/systemResolver.test.ts',
  'test/adapters/tableDns.test.ts',
  'test/adapters/webhookSender.test.ts',
  'test/domain/billing/plans.test.ts',
  'test/domain/common/domains.test.ts',
  'test/domain/common/json.test.ts',
  'test/domain/credits/wallet.test.ts',
  'test/domain/growth/inputText.test.ts',
  'test/domain/growth/inputTextLinear.test.ts',
  'test/domain/growth/normalize.test.ts',
  'test/domain/growth/outcome.test.ts',
  'test/domain/growth/planner.test.ts',
  'test/domain/growth/pricing.test.ts',
  'test/domain/intelligence/dataset.test.ts',
  'test/domain/intelligence/parentMatch.test.ts',
  'test/domain/intelligence/pricing.test.ts',
  'test/domain/intelligence/rankedRecord.test.ts',
  'test/domain/intelligence/ranking.test.ts',
  'test/domain/intelligence/requestTextLinear.test.ts',
  'test/domain/intelligence/slots.test.ts',
  'test/domain/intelligence/termMatch.test.ts',
  'test/domain/jobs/capabilities.test.ts',
  'test/domain/jobs/capabilityRecord.test.ts',
  'test/domain/jobs/curatedCache.test.ts',
  'test/domain/jobs/deliveredUnits.test.ts',
  'test/domain/jobs/disposableDomains.test.ts',
  'test/domain/jobs/finalize.test.ts',
  'test/domain/jobs/planner.test.ts',
  'test/domain/jobs/pricing.test.ts',
  'test/domain/jobs/progress.test.ts',
  'test/domain/moderation/classifier.test.ts',
  'test/domain/moderation/classifierLinear.test.ts',
  'test/domain/moderation/communityRules.test.ts',
  'test/domain/moderation/crispHook.test.ts',
  'test/domain/moderation/detector.test.ts',
  'test/domain/moderation/detectorLinear.test.ts',
  'test/domain/moderation/engine.test.ts',
  'test/domain/moderation/renewalRules.test.ts',
  'test/domain/moderation/sharedSenders.test.ts',
  'test/domain/moderation/telegram.test.ts',
  'test/domain/moderation/xReplies.test.ts',
  'test/domain/sweeps.test.ts',
  'test/domain/usage/usage.test.ts',
  'test/domain/webhooks/addressPolicy.test.ts',
  'test/domain/webhooks/signing.test.ts',
  'test/graphemes.test.ts',
  'test/http/assetShapes.test.ts',
  'test/http/consoleFiles.test.ts',
  'test/http/contract.test.ts',
  'test/http/errorResponse.test.ts',
  'test/http/openApiFile.test.ts',
  'test/http/openapiDetails.test.ts',
  'test/http/openapiWebhooks.test.ts',
  'test/ids.test.ts',
  'test/layout/casts.test.ts',
  'test/layout/configReads.test.ts',
  'test/layout/docs.test.ts',
  'test/layout/importCycles.test.ts',
  'test/layout/importDirection.test.ts',
  'test/layout/observeDecidedOnce.test.ts',
  'test/layout/sweepTables.test.ts',
  'test/layout/testTiers.test.ts',
  'test/mcp/toolPrices.test.ts',
  'test/platforms/crispApi.test.ts',
  'test/platforms/platformAdapters.test.ts',
  'test/platforms/platformWork.test.ts',
  'test/platforms/pollSchedules.test.ts',
  'test/platforms/xApi.test.ts',
  'test/store/entity.test.ts',
];

export default defineConfig({
  test: {
    // Access lines at INFO would bury test output; test/e2e/logging.test.ts raises its own level.
    // The platform stand-ins are polled back to back; test/e2e/redditModeration.test.ts checks the spacing.
    env: { POWERTOOLS_LOG_LEVEL: 'WARN', MODERATION_SYNC_INTERVAL_SECONDS: '0' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/support/summaryReporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT_TESTS,
          // One `vitest run` (one closing line for CI) runs this tier before the stack tier.
          sequence: { groupOrder: 0 },
          isolate: false,
          setupFiles: ['test/support/noTable.ts', 'test/support/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'stack',
          include: ['test/**/*.test.ts'],
          exclude: UNIT_TESTS,
          sequence: { groupOrder: 1 },
          globalSetup: ['test/support/globalSetup.ts'],
          setupFiles: ['test/support/tableSetup.ts', 'test/support/setup.ts'],
        },
      },
    ],
  },
});
