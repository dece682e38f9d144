import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/support/globalSetup.ts'],
    setupFiles: ['test/support/setup.ts'],
    include: ['test/**/*.test.ts'],
    // Access lines at INFO would bury test output; test/e2e/logging.test.ts raises its own level.
    // The platform stand-ins are polled back to back; test/e2e/redditModeration.test.ts checks the spacing.
    env: { POWERTOOLS_LOG_LEVEL: 'WARN', MODERATION_SYNC_INTERVAL_SECONDS: '0' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});
