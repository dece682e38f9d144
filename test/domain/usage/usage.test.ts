import { describe, expect, it } from 'vitest';
import { summarizeUsage, usageRange } from '#shared/domain/usage/usage';
import { ValidationError } from '#shared/http/errors';

const today = new Date('2026-11-22T15:00:00.000Z');
const entry = (created_at: string, tool_name: string, credits: number) => ({
  created_at,
  tool_name,
  credits,
  ref_id: 'r',
  charge_id: `${created_at}${tool_name}`,
});

describe('usage range', () => {
  it('defaults to the 30 days before today, inclusive of both ends', () => {
    const r = usageRange(today);
    expect(r.start.toISOString().slice(0, 10)).toBe('2026-10-23');
    expect(r.end.toISOString().slice(0, 10)).toBe('2026-11-22');
    expect(r.days).toBe(31);
  });

  it('rejects a start after the end, a range over 366 days and impossible dates', () => {
    expect(() => usageRange(today, '2026-11-10', '2026-11-01')).toThrow(ValidationError);
    expect(() => usageRange(today, '2025-01-01', '2026-11-01')).toThrow(ValidationError);
    expect(() => usageRange(today, '2026-02-30', '2026-03-01')).toThrow(ValidationError);
    expect(() => usageRange(today, '2025-11-01', '2026-11-01')).not.toThrow();
  });
});

describe('usage summary', () => {
  it('totals by tool and by day, nets refunds, and derives the documented averages', () => {
    const range = usageRange(today, '2026-11-01', '2026-11-10');
    const s = summarizeUsage(
      [
        entry('2026-11-01T10:00:00.000Z', 'vc-shortlist-v1', 200),
        entry('2026-11-03T10:00:00.000Z', 'bd_job', 150),
        entry('2026-11-03T11:00:00.000Z', 'bd_job', -50),
        entry('2026-11-10T23:59:59.999Z', 'moderation_community', 500),
      ],
      range,
      10_000,
    );
    expect(s.total_used).toBe(800);
    expect(s.by_tool).toEqual([
      { tool_name: 'moderation_community', credits: 500 },
      { tool_name: 'vc-shortlist-v1', credits: 200 },
      { tool_name: 'bd_job', credits: 100 },
    ]);
    expect(s.top_tool).toBe('moderation_community');
    expect(s.by_day).toHaveLength(10);
    expect(s.by_day[0]).toEqual({ date: '2026-11-01', credits: 200 });
    expect(s.by_day[2]).toEqual({ date: '2026-11-03', credits: 100 });
    expect(s.by_day[9]).toEqual({ date: '2026-11-10', credits: 500 });
    expect(s.average_daily).toBe(80);
    expect(s.projected).toBe(2400);
    expect(s.percentage_used).toBe(8);
  });

  it('has no projection under 7 days, no percentage without an allowance and no top tool when nothing was used', () => {
    const s = summarizeUsage([], usageRange(today, '2026-11-20', '2026-11-22'), null);
    expect(s).toMatchObject({
      total_used: 0,
      projected: null,
      percentage_used: null,
      top_tool: null,
      allowance: null,
      average_daily: 0,
    });
    expect(s.by_day.map((d) => d.credits)).toEqual([0, 0, 0]);
  });
});
