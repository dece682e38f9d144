/**
 * The activation replies every platform gives a community that is not paid: an expired one can never
 * moderate again and takes no place (one it held is free for others); a suspended one is bound, and
 * moderates once its renewal is paid. `place` names what was bound ("This group", "r/acme").
 */
export const UNPAID_ACTIVATION = {
  expired: 'This community has expired and moderates nothing any more: provision a new community and use its token.',
  suspended: (place: string, until = 'it starts once the renewal is paid') =>
    `${place} is bound, but moderation is off while the community is suspended (its renewal is unpaid): ${until}.`,
};
