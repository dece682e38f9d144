import type { PackageId } from '#shared/domain/intelligence/packages';
import { builderDiscovery, hackathonBuilders } from './builders';
import { kolDiscovery } from './kols';
import { companyPeople, userProspects } from './people';
import type { PackageEngine } from './types';
import { vcShortlist } from './vcShortlist';
import { warmIntroPaths } from './warmIntros';

export const ENGINES: Record<PackageId, PackageEngine> = {
  'vc-shortlist-v1': vcShortlist,
  'builder-discovery-v1': builderDiscovery,
  'company-people-discovery-v1': companyPeople,
  'warm-intro-paths-v1': warmIntroPaths,
  'kol-discovery-v1': kolDiscovery,
  'user-prospect-v1': userProspects,
  'hackathon-builder-v1': hackathonBuilders,
};
export type { PackageEngine, RankedRecord } from './types';
