/**
 * An expansion quote may repeat its parent's request (package_id, slots, output_fields and
 * expansion_scope): a client that sends what it sent for the parent must not be refused. The
 * expansion always runs on the parent's request, so a value that says otherwise would be silently
 * ignored; such a request is refused instead (422 quote_mismatch) with each contradiction named.
 *
 * What contradicts the parent (values compared in canonical form, so "DeFi" equals "defi"):
 * - a different package_id;
 * - a slot whose value differs from the parent's, or that the parent did not have (limit too:
 *   an expansion's size is set by its expansion_params, not by the parent's limit);
 * - an output field the parent's records do not carry.
 * Leaving a slot or field out does not contradict: it is taken from the parent, and a subset of the
 * parent's fields is fine (the expansion delivers the parent's fields, as the quote's output_fields show).
 */
import type { FieldIssue } from '#shared/domain/errors';
import type { CanonicalSlots, SlotValue } from './slots';

export interface ParentRequest {
  packageId: string;
  slots: CanonicalSlots;
  outputFields: readonly string[];
}

/** What the expansion quote repeated: only the slots it sent, and its fields when it sent any. */
export interface RepeatedRequest {
  packageId: string;
  slots: CanonicalSlots;
  outputFields?: readonly string[];
}

const shown = (value: SlotValue | undefined) => (value === undefined ? 'no value' : JSON.stringify(value));

/** One check per part of the request, each naming the fields it finds contradicting the parent. */
const CHECKS: readonly ((parent: ParentRequest, sent: RepeatedRequest) => FieldIssue[])[] = [
  (parent, sent) =>
    sent.packageId === parent.packageId
      ? []
      : [{ path: 'package_id', message: `The parent result is ${parent.packageId}, not ${sent.packageId}` }],
  (parent, sent) =>
    Object.entries(sent.slots)
      .map(([name, value]) => ({
        name,
        value,
        was: Object.hasOwn(parent.slots, name) ? parent.slots[name] : undefined,
      }))
      .filter(({ value, was }) => value !== was)
      .map(({ name, value, was }) => ({
        path: `slots.${name}`,
        message: `The parent result has ${shown(was)}; this request has ${shown(value)}`,
      })),
  (parent, sent) =>
    (sent.outputFields ?? [])
      .filter((field) => !parent.outputFields.includes(field))
      .map((field) => ({
        path: 'output_fields',
        message: `The parent result has no field "${field}"; its fields are: ${parent.outputFields.join(', ')}`,
      })),
];

/** Every way `sent` contradicts the parent's request (empty when it only repeats it). */
export const parentMismatches = (parent: ParentRequest, sent: RepeatedRequest): FieldIssue[] =>
  CHECKS.flatMap((check) => check(parent, sent));
