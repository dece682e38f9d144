import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { config, parseConfig, reloadConfig, requireSettings } from '#shared/config/config';
import { requiredSettingsOf } from '#shared/adapters/functionWiring';

/**
 * One typed configuration, parsed once: defaults where a setting has one, a loud failure naming the
 * variable where a value is wrong, and at a Lambda's cold start where a setting its wiring needs is
 * missing (before any request is taken).
 */
const VARIABLES = [
  'AWS_LAMBDA_FUNCTION_NAME',
  'TABLE_NAME',
  'PIPELINE_QUEUE_URL',
  'WEBHOOK_QUEUE_URL',
  'EVENT_BUS_NAME',
  'PUBLIC_BASE_URL',
  'JOB_EVENTS_POLL_MS',
];
const saved = Object.fromEntries(VARIABLES.map((n) => [n, process.env[n]]));
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadConfig();
});

describe('configuration', () => {
  it('has defaults, treats a blank variable as unset, and fails closed on the address policy', () => {
    const c = parseConfig({ TABLE_NAME: '', WEBHOOK_ADDRESS_POLICY: 'LOCAL', JOB_WATCHDOG_MAX_REDRIVES: '5' });
    expect(c.tableName).toBeUndefined();
    expect(c.webhookAddressPolicy).toBe('deployed');
    expect(c.jobWatchdog).toEqual({ staleAfterMs: 600_000, maxRedrives: 5 });
    expect(c.jobEvents).toEqual({ pollMs: 2000, keepAliveMs: 15_000 });
    expect(c.region).toBe('us-east-1');
    expect(parseConfig({ WEBHOOK_ADDRESS_POLICY: 'local' }).webhookAddressPolicy).toBe('local');
  });

  it('refuses a number that is not one, naming the variable', () => {
    expect(() => parseConfig({ JOB_WATCHDOG_STALE_AFTER_SECONDS: 'ten' })).toThrow(
      'JOB_WATCHDOG_STALE_AFTER_SECONDS must be a number >= 0, got "ten"',
    );
  });

  it('is read once and kept until the local runtime or a test reloads it', () => {
    process.env.JOB_EVENTS_POLL_MS = '123';
    reloadConfig();
    expect(config().jobEvents.pollMs).toBe(123);
    process.env.JOB_EVENTS_POLL_MS = '456';
    expect(config().jobEvents.pollMs).toBe(123);
    reloadConfig();
    expect(config().jobEvents.pollMs).toBe(456);
  });

  it('names every missing required variable', () => {
    expect(() => requireSettings(['TABLE_NAME', 'EVENT_BUS_NAME'], parseConfig({ TABLE_NAME: 't' }))).toThrow(
      'Missing required environment variable EVENT_BUS_NAME',
    );
    expect(() => requireSettings(requiredSettingsOf('renewals'), parseConfig({}))).toThrow(
      'Missing required environment variables TABLE_NAME, PIPELINE_QUEUE_URL, EVENT_BUS_NAME, PUBLIC_BASE_URL, WEBHOOK_QUEUE_URL',
    );
    expect(requiredSettingsOf('public')).toEqual([]);
  });

  it('a Lambda missing a setting its wiring needs fails when its module loads, naming it', async () => {
    Object.assign(process.env, { AWS_LAMBDA_FUNCTION_NAME: 'renewals', PIPELINE_QUEUE_URL: 'https://sqs/q' });
    delete process.env.EVENT_BUS_NAME;
    delete process.env.WEBHOOK_QUEUE_URL;
    delete process.env.PUBLIC_BASE_URL;
    vi.resetModules();
    // The renewals' outbox sweep renders events, which link to the API: it needs its address.
    await expect(import('#functions/renewals/handler')).rejects.toThrow(
      'Missing required environment variables EVENT_BUS_NAME, PUBLIC_BASE_URL, WEBHOOK_QUEUE_URL',
    );
    Object.assign(process.env, {
      EVENT_BUS_NAME: 'bus',
      WEBHOOK_QUEUE_URL: 'https://sqs/w',
      PUBLIC_BASE_URL: 'https://api.example.com/api/v1',
    });
    vi.resetModules();
    await expect(import('#functions/renewals/handler')).resolves.toHaveProperty('handler');
  });

  it('the configuration table (docs/operations.md) names every variable the config module reads', () => {
    const source = readFileSync(path.join(PROJECT_ROOT, 'shared/config/config.ts'), 'utf8');
    const read = new Set([...source.matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)].map((m) => m[1]));
    // Set by Lambda itself, not by anyone configuring the service.
    read.delete('AWS_LAMBDA_FUNCTION_NAME');
    expect(read.size).toBeGreaterThan(20);
    const operations = readFileSync(path.join(PROJECT_ROOT, 'docs/operations.md'), 'utf8');
    const table = operations.slice(
      operations.indexOf('## Configuration'),
      operations.indexOf('\n## ', operations.indexOf('## Configuration') + 1),
    );
    expect([...read].filter((name) => !table.includes(`\`${name}\``))).toEqual([]);
  });
});
