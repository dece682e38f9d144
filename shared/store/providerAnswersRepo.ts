/**
 * Outside data providers' answers, kept for the deployment: what one provider answered to one
 * lookup (found or found nothing; never a failure), until `ttl`. DynamoDB deletes expired items
 * only eventually, so a read past `ttl` is a miss.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './client';
import { defineEntity } from './entity';
import { providerAnswerKey } from './keys';

export interface ProviderAnswer {
  provider: string;
  lookup: string;
  /** What was asked, normalised (a domain, names, an address): kept so an operator can read the item. */
  query: string;
  /** JSON of what was found; null: the provider found nothing. */
  value: string | null;
  answeredAt: string;
  ttl: number;
}

const digest = (query: string) => createHash('sha256').update(query).digest('hex');

const answers = defineEntity<ProviderAnswer>()({
  name: 'providerAnswer',
  key: (a: Pick<ProviderAnswer, 'provider' | 'lookup' | 'query'>) =>
    providerAnswerKey(a.provider, a.lookup, digest(a.query)),
  nullable: ['value'],
  keep: ['ttl'],
});

/** The remembered answer, or undefined when none is (or it expired at `nowSeconds`). */
export async function getProviderAnswer(
  provider: string,
  lookup: string,
  query: string,
  nowSeconds: number,
): Promise<ProviderAnswer | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: answers.key({ provider, lookup, query }) }),
  );
  const answer = answers.maybe(Item);
  // A digest collision would answer another query: the stored query must be this one.
  return answer && answer.query === query && answer.ttl > nowSeconds ? answer : undefined;
}

export async function putProviderAnswer(answer: ProviderAnswer): Promise<void> {
  await ddb().send(new PutCommand({ TableName: table(), Item: answers.item(answer, { ttl: answer.ttl }) }));
}
