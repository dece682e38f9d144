import { getCompanyByDomain, getPersonByLinkedinUrl, listPeopleByCompany } from '#shared/store/curatedReads';
import type { CuratedSource } from './curatedSource';

/** The curated dataset of the intelligence area, read through its repository. */
export function storeCuratedSource(): CuratedSource {
  return {
    companyByDomain: getCompanyByDomain,
    peopleAtCompany: listPeopleByCompany,
    personByLinkedinUrl: getPersonByLinkedinUrl,
  };
}
