/**
 * The slug of a name (`Nebula Labs`, `nebula-labs` and `NEBULA LABS` are one name): accents dropped,
 * lower case, `&` as `and`, every run of other characters one dash. Curated lookups by name key on it,
 * so the store and the domain must agree on it: a leaf both import.
 */
export const slugOf = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
