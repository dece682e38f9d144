/**
 * The input assets an enrichment job or a growth plan works on (companies and contacts) and the ICP
 * criteria that score companies, described once: POST /bd/jobs, the growth endpoints and the signed
 * growth plan all build their shapes from these fields, so a limit or a type cannot disagree
 * between them. Every text is trimmed before its limit applies.
 */
import * as z from '#shared/zod';
import { withMeta } from '#shared/zod';

/** The longest accepted value of each asset field, in characters. */
export const ASSET_FIELD_LIMITS = {
  company_name: 300,
  // The longest DNS name.
  domain: 253,
  website: 2000,
  full_name: 300,
  first_name: 150,
  last_name: 150,
  // The longest address SMTP can deliver to (a 256-octet path less its angle brackets).
  email: 254,
  linkedin_url: 2000,
  title: 300,
} as const;
export type AssetField = keyof typeof ASSET_FIELD_LIMITS;

/**
 * A blank value (empty after trimming) is refused where a request names its rows exactly (a job,
 * a plan), and kept where growth normalises pasted or exported data and drops what is empty.
 */
export type Blanks = 'refused' | 'kept';

export const assetText = (field: AssetField, blanks: Blanks) =>
  blanks === 'refused'
    ? z.string().check(z.trim(), z.minLength(1), z.maxLength(ASSET_FIELD_LIMITS[field]))
    : z.string().check(z.trim(), z.maxLength(ASSET_FIELD_LIMITS[field]));

export const companyFields = (blanks: Blanks) => ({
  company_name: z.optional(assetText('company_name', blanks)),
  domain: z.optional(assetText('domain', blanks)),
  website: z.optional(assetText('website', blanks)),
});

export const contactFields = (blanks: Blanks) => ({
  full_name: z.optional(assetText('full_name', blanks)),
  first_name: z.optional(assetText('first_name', blanks)),
  last_name: z.optional(assetText('last_name', blanks)),
  email: z.optional(assetText('email', blanks)),
  company_name: z.optional(assetText('company_name', blanks)),
  domain: z.optional(assetText('domain', blanks)),
  linkedin_url: z.optional(assetText('linkedin_url', blanks)),
  title: z.optional(assetText('title', blanks)),
});

const criterion = z.string().check(z.trim(), z.minLength(1), z.maxLength(100));

/** What qualification scores a company on; scores are whole numbers from 0 to 100. */
export const icpConfigSchema = withMeta(
  z.strictObject({
    industries: z.optional(z.array(criterion).check(z.maxLength(50))),
    locations: z.optional(z.array(criterion).check(z.maxLength(50))),
    keywords: z.optional(z.array(criterion).check(z.maxLength(50))),
    min_employees: z.optional(z.int().check(z.gte(0))),
    max_employees: z.optional(z.int().check(z.gte(0))),
    min_score: z.optional(z.int().check(z.gte(0), z.lte(100))),
  }),
  { id: 'IcpConfig' },
);
export type IcpConfig = z.output<typeof icpConfigSchema>;
