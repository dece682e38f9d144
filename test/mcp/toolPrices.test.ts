import { afterEach, describe, expect, it, vi } from 'vitest';
import { CAPABILITIES, CAPABILITY_NAMES } from '#shared/domain/jobs/capabilities';
import { TOOLS } from '#shared/mcp/tools';

const descriptionOf = (tools: typeof TOOLS, name: string): string => {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.description;
};
/** The prices the quote tool tells an agent, as "capability credits" pairs. */
const statedPrices = (tools: typeof TOOLS) =>
  /credits per unit: ([^)]*)\)/.exec(descriptionOf(tools, 'quote_enrichment_job'))?.[1];

afterEach(() => {
  vi.doUnmock('#shared/domain/jobs/capabilities');
  vi.resetModules();
});

describe('the MCP tools’ price text', () => {
  it('states the unit credits of every priced capability as the capability table declares them, in pipeline order', () => {
    const declared = CAPABILITY_NAMES.filter((c) => CAPABILITIES[c].unitCredits > 0)
      .map((c) => `${c} ${CAPABILITIES[c].unitCredits}`)
      .join(', ');
    expect(statedPrices(TOOLS)).toBe(declared);
  });

  it('follows a price change in the capability table (it is derived, not copied)', async () => {
    vi.resetModules();
    vi.doMock('#shared/domain/jobs/capabilities', async (importOriginal) => {
      const original = await importOriginal<typeof import('#shared/domain/jobs/capabilities')>();
      const emailLookup = { ...original.CAPABILITIES.email_lookup, unitCredits: 7 };
      return { ...original, CAPABILITIES: { ...original.CAPABILITIES, email_lookup: emailLookup } };
    });
    const { TOOLS: repriced } = await import('#shared/mcp/tools');
    expect(statedPrices(repriced)).toContain('email_lookup 7');
  });
});
