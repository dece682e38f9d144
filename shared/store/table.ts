/**
 * The single table's physical shape, shared by the CDK stack and the local runtime so that the two
 * can never drift. Logical access patterns live in keys.ts.
 */
export const TABLE_KEY = { partitionKey: 'pk', sortKey: 'sk' } as const;
export const TTL_ATTRIBUTE = 'ttl';

/** Overloaded secondary indexes; keys.ts documents which entity uses which. */
export const GLOBAL_INDEXES = [
  { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
] as const;

export type IndexName = (typeof GLOBAL_INDEXES)[number]['indexName'];
