import { describe, expect, it } from 'vitest';
import { decideRenewal, renewalChargeId, type BillingSnapshot } from '#shared/domain/moderation/renewalRules';

const due = '2026-12-22T06:00:00.000Z';
const snapshot = (overrides: Partial<BillingSnapshot> = {}): BillingSnapshot => ({
  billingState: 'active',
  autoRenew: true,
  nextBillingAt: due,
  periodIndex: 1,
  ...overrides,
});

describe('decideRenewal', () => {
  it('does nothing before the due time or for an expired community', () => {
    expect(decideRenewal(snapshot(), new Date('2026-12-22T05:59:59.999Z'))).toEqual({ kind: 'not_due' });
    expect(
      decideRenewal(snapshot({ billingState: 'expired', nextBillingAt: null }), new Date('2027-06-01T00:00:00.000Z')),
    ).toEqual({ kind: 'not_due' });
  });

  it('charges the next period from the due time, without drift, even when the sweep runs late', () => {
    expect(decideRenewal(snapshot(), new Date('2026-12-24T13:00:00.000Z'))).toEqual({
      kind: 'charge',
      period: 2,
      newPeriodStart: due,
      nextBillingAt: '2027-01-21T06:00:00.000Z',
    });
  });

  it("starts a recovered community's new period at the successful payment", () => {
    const at = new Date('2026-12-30T00:00:00.000Z');
    expect(decideRenewal(snapshot({ billingState: 'suspended' }), at)).toMatchObject({
      kind: 'charge',
      newPeriodStart: at.toISOString(),
      nextBillingAt: '2027-01-29T00:00:00.000Z',
    });
  });

  it('selects by the due-by instant but starts a recovered period at the present payment', () => {
    const present = new Date('2026-12-30T00:00:00.000Z');
    const dueBy = new Date('2027-01-15T00:00:00.000Z');
    expect(decideRenewal(snapshot({ billingState: 'suspended' }), dueBy, present)).toMatchObject({
      kind: 'charge',
      newPeriodStart: present.toISOString(),
    });
    expect(
      decideRenewal(snapshot({ billingState: 'suspended', nextBillingAt: '2027-01-10T00:00:00.000Z' }), dueBy, present),
    ).toMatchObject({
      kind: 'charge',
      newPeriodStart: '2027-01-10T00:00:00.000Z',
    });
  });

  it('expires at period end when auto-renew is off, suspended or not', () => {
    expect(decideRenewal(snapshot({ autoRenew: false }), new Date(due))).toEqual({ kind: 'expire' });
    expect(decideRenewal(snapshot({ autoRenew: false, billingState: 'suspended' }), new Date(due))).toEqual({
      kind: 'expire',
    });
  });

  it('selected by a later instant, expires only once the period has ended at the present', () => {
    const dueBy = new Date('2027-01-15T00:00:00.000Z');
    const present = new Date('2026-12-20T00:00:00.000Z');
    expect(decideRenewal(snapshot({ autoRenew: false }), dueBy, present)).toEqual({ kind: 'not_due' });
    expect(decideRenewal(snapshot({ autoRenew: false }), dueBy, new Date(due))).toEqual({ kind: 'expire' });
  });

  it('names the charge after the community and the period, so retries collide', () => {
    expect(renewalChargeId('c1', 2)).toBe(renewalChargeId('c1', 2));
    expect(renewalChargeId('c1', 2)).not.toBe(renewalChargeId('c1', 3));
  });
});
