/**
 * The canonical form of an execute request and of an expansion request: what a quote binds to and
 * what the identical-query rule compares. Invalid input is a 400 here, before anything is priced.
 */
import { ValidationError, type FieldIssue } from '../../http/errors';
import { PACKAGES, type PackageDef, type PackageId } from './packages';
import { checkSlots, type CanonicalSlots } from './slots';

export interface ExecuteRequest {
  packageId: PackageId;
  slots: CanonicalSlots;
  /** In the package's field order, without repeats. */
  outputFields: string[];
}

export function executeRequest(packageId: PackageId, slots: Record<string, unknown>, outputFields: string[] | undefined): ExecuteRequest {
  const pkg: PackageDef = PACKAGES[packageId];
  const check = checkSlots(pkg, slots);
  const issues: FieldIssue[] = [...check.issues, ...check.misunderstood, ...check.missing.map((name) => ({ path: `slots.${name}`, message: `Required slot of ${pkg.id}` }))];
  const unknownFields = (outputFields ?? []).filter((f) => !pkg.fields.includes(f));
  issues.push(...unknownFields.map((f) => ({ path: 'output_fields', message: `${pkg.id} has no field "${f}"; fields are: ${pkg.fields.join(', ')}` })));
  if (issues.length) throw new ValidationError('The request cannot be quoted as it is.', issues);
  const wanted = new Set(outputFields ?? pkg.fields);
  return { packageId, slots: check.slots, outputFields: pkg.fields.filter((f) => wanted.has(f)) };
}

/** A ranked record reduced to its id and the requested fields. */
export const projectRecord = (id: string, fields: Record<string, unknown>, outputFields: string[]): Record<string, unknown> => ({
  record_id: id,
  ...Object.fromEntries(outputFields.map((f) => [f, fields[f] ?? null])),
});
