/** list_packages: the package table itself (the data resolve, quote and execute price and run), a page at a time. */
import { CONTACT_TIER_IDS, PACKAGES, type PackageDef } from '#shared/domain/intelligence/packages';
import type * as z from '#shared/zod';
import type { packageCatalogue } from '#shared/schemas/mcp';

type Catalogue = z.output<typeof packageCatalogue>;

const entry = (pkg: PackageDef): Catalogue['items'][number] => ({
  package_id: pkg.id as Catalogue['items'][number]['package_id'],
  name: pkg.name,
  description: pkg.description,
  slots: Object.entries(pkg.slots).map(([name, slot]) => ({
    name,
    required: slot.required === true,
    description: slot.description,
  })),
  limit: pkg.limit,
  output_fields: [...pkg.fields],
  price: { base: pkg.price.base, per_record: pkg.price.perRecord },
  expansions: [...pkg.expansions],
  contact_tiers: pkg.expansions.includes('contact_unlock') ? [...CONTACT_TIER_IDS] : [],
  example: pkg.example,
});

export function packagePage(offset: number, limit: number): Catalogue {
  const all = Object.values(PACKAGES as Record<string, PackageDef>);
  return { items: all.slice(offset, offset + limit).map(entry), total: all.length, limit, offset };
}
