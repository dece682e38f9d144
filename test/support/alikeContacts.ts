/**
 * Contacts whose names look alike but whose addresses differ (one address given twice in other
 * case): the rows a deliverable must keep apart, merging only the same address.
 */
export const alikeNamedContacts = (domain: string) => [
  { full_name: 'Ada Park', email: `ada@${domain}` },
  { full_name: 'Ada Park', email: `ADA@${domain}` },
  { full_name: 'Ada Park', email: `ada.park@${domain}` },
  { full_name: 'N/A', email: `one@${domain}` },
  { full_name: 'N/A', email: `two@${domain}` },
  { full_name: '张伟', email: `zhang.wei@${domain}` },
  { full_name: '李娜', email: `li.na@${domain}` },
];
