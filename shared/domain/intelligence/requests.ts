/**
 * The canonical form of an execute request and of an expansion request: what a quote binds to and
 * what the identical-query rule compares. Invalid input is a 400 here, before anything is priced.
 */
import { ValidationError, type FieldIssue } from '#shared/domain/errors';
import { PACKAGES, type PackageDef, type PackageId } from './packages';
import { checkSlots, type CanonicalSlots } from './slots';

export interface ExecuteRequest {
  packageId: PackageId;
  slots: CanonicalSlots;
  /** In the package's field order, without repeats. */
  outputFields: string[];
}

const unknownFieldIssues = (pkg: PackageDef, outputFields: string[] | undefined): FieldIssue[] =>
  (outputFields ?? [])
    .filter((f) => !pkg.fields.includes(f))
    .map((f) => ({
      path: 'output_fields',
      message: `${pkg.id} has no field "${f}"; fields are: ${pkg.fields.join(', ')}`,
    }));
const inPackageOrder = (pkg: PackageDef, outputFields: string[]) => pkg.fields.filter((f) => outputFields.includes(f));

export function executeRequest(
  packageId: PackageId,
  slots: Record<string, unknown>,
  outputFields: string[] | undefined,
): ExecuteRequest {
  const pkg: PackageDef = PACKAGES[packageId];
  const check = checkSlots(pkg, slots);
  const refused = [...check.issues, ...check.misunderstood];
  // A required slot whose value was refused is reported once, with the reason (and suggestions).
  const missing = check.missing.filter((name) => !refused.some((i) => i.path === `slots.${name}`));
  const issues: FieldIssue[] = [
    ...refused,
    ...missing.map((name) => ({ path: `slots.${name}`, message: `Required slot of ${pkg.id}` })),
    ...unknownFieldIssues(pkg, outputFields),
  ];
  if (issues.length) throw new ValidationError('The request cannot be quoted as it is.', issues);
  return { packageId, slots: check.slots, outputFields: inPackageOrder(pkg, outputFields ?? [...pkg.fields]) };
}

/**
 * The part of a parent's request an expansion quote repeated, in canonical form: only the slots it
 * sent (no defaults, nothing required) and its fields if it sent any. Malformed values are a 400 as
 * anywhere else; whether they agree with the parent is parentMatch's question.
 */
export function repeatedRequest(
  packageId: PackageId,
  slots: Record<string, unknown>,
  outputFields: string[] | undefined,
) {
  const pkg: PackageDef = PACKAGES[packageId];
  const check = checkSlots(pkg, slots);
  const issues = [...check.issues, ...check.misunderstood, ...unknownFieldIssues(pkg, outputFields)];
  if (issues.length) throw new ValidationError('The request cannot be quoted as it is.', issues);
  const sent = Object.fromEntries(
    Object.entries(check.slots).filter(
      ([name]) => Object.hasOwn(slots, name) && slots[name] !== null && slots[name] !== undefined,
    ),
  );
  return { packageId, slots: sent, ...(outputFields ? { outputFields: inPackageOrder(pkg, outputFields) } : {}) };
}

/** A ranked record reduced to its id and the requested fields. */
export const projectRecord = (
  id: string,
  fields: Record<string, unknown>,
  outputFields: string[],
): Record<string, unknown> => ({
  record_id: id,
  ...Object.fromEntries(outputFields.map((f) => [f, fields[f] ?? null])),
});
