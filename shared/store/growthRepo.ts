import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, table } from './client';
import {
  GROWTH_RUN_START_SHARDS,
  growthPlanKey,
  growthRunKey,
  growthRunStartIndexKey,
  growthRunStartPartition,
  growthRunStartUpTo,
} from './keys';
import { queryDueShards } from './query';
import type { TransactItem } from './transactions';
import { defineEntity } from './entity';

export interface PlanIssueRecord {
  userId: string;
  planId: string;
  fingerprint: string;
  issuedAt: string;
  /** Epoch seconds; DynamoDB drops the item after it. */
  ttl: number;
}

export type GrowthRunStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

/** What a finished run delivered, fixed once when the run is first seen terminal. */
export interface GrowthRunOutcome {
  chargedCredits: number;
  resultId: string | null;
  rows: number;
  deliveredCounts: Record<string, number>;
  dataSourceMix: Record<string, number>;
  gapReport: {
    unresolved_count: number;
    reasons: Record<string, number>;
    unresolved: { row: number; label: string; reason: string }[];
  };
  stageStatus: Record<string, string>;
  progress: { percent: number; message: string };
  finishedAt: string;
}

export interface GrowthRunRecord {
  runId: string;
  userId: string;
  /** The SHA-256 of the quote token the run was started with (the quote is stored by quotesRepo). */
  quoteTokenHash: string;
  planId: string;
  goalType: string;
  pipelineId: string;
  capabilities: string[];
  requiredFields: string[];
  previewRows: number;
  inputCounts: { companies: number; contacts: number };
  coverageMode: string;
  quotedCredits: number;
  reservationId: string;
  chatId: string | null;
  jobId: string | null;
  status: GrowthRunStatus;
  errorMessage: string | null;
  createdAt: string;
  updatedAt: string;
  outcome?: GrowthRunOutcome;
}

// Plans keep their ttl as a field of the record.
const plans = defineEntity<PlanIssueRecord>()({
  name: 'growthPlan',
  key: (p: Pick<PlanIssueRecord, 'userId' | 'planId'>) => growthPlanKey(p.userId, p.planId),
  keep: ['ttl'],
});
const runs = defineEntity<GrowthRunRecord>()({
  name: 'growthRun',
  key: (r: Pick<GrowthRunRecord, 'userId' | 'runId'>) => growthRunKey(r.userId, r.runId),
  keep: ['ttl'],
});

export async function putPlanIssue(record: PlanIssueRecord): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: table(),
      Item: plans.item(record),
    }),
  );
}

export async function getPlanIssue(userId: string, planId: string): Promise<PlanIssueRecord | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: growthPlanKey(userId, planId) }));
  return plans.maybe(Item);
}

export function putRunItem(run: GrowthRunRecord): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: runs.item(run, growthRunStartIndexKey(run.runId, run.createdAt)),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function getRun(userId: string, runId: string): Promise<GrowthRunRecord | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: growthRunKey(userId, runId), ConsistentRead: true }),
  );
  return runs.maybe(Item);
}

export async function attachJob(userId: string, runId: string, jobId: string, atIso: string): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: growthRunKey(userId, runId),
      ...runs.update({
        set: { jobId, updatedAt: atIso },
        remove: ['gsi3pk', 'gsi3sk'],
        condition: 'attribute_exists(pk)',
      }),
    }),
  );
}

/** A run that never got going (the job could not start): terminal at once. */
/** Fails a run that never got its job (nothing ran); only a pending run without a job fails, and only once. */
export function failRunBeforeStartItem(userId: string, runId: string, message: string, atIso: string): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: growthRunKey(userId, runId),
      ...runs.update({
        set: { status: 'failed', errorMessage: message, updatedAt: atIso },
        remove: ['gsi3pk', 'gsi3sk'],
        condition: {
          expression:
            'attribute_exists(pk) AND attribute_not_exists(outcome) AND #runStatus = :pending AND (attribute_not_exists(jobId) OR attribute_type(jobId, :nullType))',
          names: { '#runStatus': 'status' },
          values: { ':pending': 'pending', ':nullType': 'NULL' },
        },
      }),
    },
  };
}

/** Records the finished run once: the condition makes a second finaliser's write (and its result) fail. */
export function finishRunItem(
  userId: string,
  runId: string,
  status: GrowthRunStatus,
  errorMessage: string | null,
  outcome: GrowthRunOutcome,
): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: growthRunKey(userId, runId),
      ...runs.update({
        set: { status, errorMessage, outcome, updatedAt: outcome.finishedAt },
        condition: 'attribute_exists(pk) AND attribute_not_exists(outcome)',
      }),
    },
  };
}

/** Runs created at or before `upToIso` that still have no job (their start may have been interrupted): a Query per shard of gsi3. */
export async function listStartingRuns(upToIso: string): Promise<GrowthRunRecord[]> {
  const items = await queryDueShards(GROWTH_RUN_START_SHARDS, growthRunStartPartition, growthRunStartUpTo(upToIso));
  return items.map(runs.fromItem);
}
