/**
 * Enrichment jobs: the job record (under its owner) and its work batches (under the job). Progress
 * is counted in the same transaction that advances a batch, guarded by the batch's step, so a
 * redelivered message can neither count twice nor charge twice.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { putAll } from './batch';
import { queryAll, queryDueShards } from './query';
import type { Capability } from '#shared/domain/jobs/capabilities';
import type { UnitCounts } from '#shared/domain/jobs/pricing';
import type { CompanyRow, ContactRow } from '#shared/domain/jobs/rows';
import type { StageSettings, StatCounter } from '#shared/domain/jobs/stages';
import { ddb, table, writeIfCondition } from './client';
import {
  JOB_WATCH_SHARDS,
  jobBatchesPartition,
  jobBatchKey,
  jobKey,
  jobsPartition,
  jobWatchIndexKey,
  jobWatchPartition,
  jobWatchSortKey,
  jobWatchUpTo,
} from './keys';
import {
  retryingConflicts,
  TransactionConditionError,
  type TransactItem,
  type TransactItems,
  writeTogether,
} from './transactions';
import type { Condition } from './update';
import { defineEntity } from './entity';

export type JobStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
export const TERMINAL_STATUSES: JobStatus[] = ['completed', 'failed', 'cancelled'];

export interface JobRecord {
  id: string;
  userId: string;
  status: JobStatus;
  preset: string;
  capabilities: Capability[];
  warnings: string[];
  /** Who started it: `api`, or the caller's own tag (growth passes `growth_run:<run_id>`). */
  origin: string;
  chatId: string | null;
  settings: StageSettings;
  inputs: { companies: number; contacts: number };
  /** Allocated at creation; the stored result takes this id when the job completes. */
  resultId: string;
  resultStored: boolean;
  reservationId: string;
  /** False when the caller reserved the credits (growth) and this job only settles. */
  ownsReservation: boolean;
  /** What the reservation holds now: the expected cost at creation, plus what the work reserved as it went. */
  creditsReserved: number;
  /**
   * Reserved credits the committed work has not used yet. Absent on a job created when jobs reserved
   * the most they could cost: that reservation covers all its work, so its stages are not bounded.
   */
  creditsHeadroom?: number;
  creditsCharged: number;
  batchCount: number;
  batchesDone: number;
  totalUnits: number;
  doneUnits: number;
  stageTotals: Partial<Record<Capability, number>>;
  stageDone: Partial<Record<Capability, number>>;
  units: UnitCounts;
  counters: Record<StatCounter, number>;
  rowsDelivered: number | null;
  duplicatesRemoved: number | null;
  /** Delivered rows by the sources of their values; written when the job completes. */
  rowsBySource?: Record<string, number>;
  errorMessage: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  completedAt?: string;
  /** Set by a cancel request; no batch commits after it. */
  cancelRequestedAt?: string;
  /** Times the watchdog re-sent the job's next steps after it stopped making progress. */
  redrives?: number;
  /** Bumped by every change; the SSE event id. */
  version: number;
}

export interface BatchRecord {
  jobId: string;
  batchNo: number;
  stages: Capability[];
  /** Index into `stages` of the next stage to run; equal to stages.length when done. */
  nextStep: number;
  rows: number;
  companies: CompanyRow[];
  contacts: ContactRow[];
  lastError?: string;
  /** What went wrong with outside providers in this batch's stages (never a failure of the job); the job's warnings at the end. */
  warnings?: string[];
}

/** The job is still live (pending or running); `and` adds to the guard. */
const live = (and?: Condition): Condition => ({
  expression: `#status IN (:pending, :running)${and ? ` AND ${and.expression}` : ''}`,
  names: { '#status': 'status', ...and?.names },
  values: { ':pending': 'pending', ':running': 'running', ...and?.values },
});

const jobs = defineEntity<JobRecord>()({
  name: 'job',
  key: (j: Pick<JobRecord, 'userId' | 'id'>) => jobKey(j.userId, j.id),
});
const batches = defineEntity<BatchRecord>()({
  name: 'jobBatch',
  key: (b: Pick<BatchRecord, 'jobId' | 'batchNo'>) => jobBatchKey(b.jobId, b.batchNo),
});

export function putJobItem(job: JobRecord): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: jobs.item(job, jobWatchIndexKey(job.id, job.createdAt)),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function getJob(userId: string, jobId: string, consistent = false): Promise<JobRecord | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: jobKey(userId, jobId), ConsistentRead: consistent }),
  );
  return jobs.maybe(Item);
}

/** A user's jobs, oldest first (UUID v7 sort keys). */
export async function listJobs(userId: string): Promise<JobRecord[]> {
  const { pk, prefix } = jobsPartition(userId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
  });
  return items.map(jobs.fromItem);
}

/** Work batches are written before the job record; until it exists nothing points at them, and the ttl clears them. */
export async function putBatches(records: BatchRecord[], ttlSeconds: number): Promise<void> {
  await putAll(records.map((b) => batches.item(b, { ttl: ttlSeconds })));
}

export async function getBatch(jobId: string, batchNo: number): Promise<BatchRecord | undefined> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: table(), Key: jobBatchKey(jobId, batchNo), ConsistentRead: true }),
  );
  return batches.maybe(Item);
}

export async function listBatches(jobId: string): Promise<BatchRecord[]> {
  const { pk, prefix } = jobBatchesPartition(jobId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
    ConsistentRead: true,
  });
  return items.map(batches.fromItem);
}

/** pending → running when the first message is picked up; a no-op for any other state. */
export async function markJobStarted(userId: string, jobId: string, at: string): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: jobKey(userId, jobId),
        ...jobs.update({
          set: { status: 'running', startedAt: at, updatedAt: at },
          increment: { version: 1 },
          condition: {
            expression: '#status = :pending',
            names: { '#status': 'status' },
            values: { ':pending': 'pending' },
          },
        }),
      }),
    ),
  );
}

export interface StageCommit {
  userId: string;
  jobId: string;
  batchNo: number;
  step: number;
  capability: Capability;
  companies: CompanyRow[];
  contacts: ContactRow[];
  /** Input rows of the batch: the progress this stage adds. */
  rows: number;
  units: number;
  counters: Partial<Record<StatCounter, number>>;
  /** The batch's provider warnings after this stage (those of earlier stages included). */
  warnings: string[];
  lastStep: boolean;
  at: string;
  /**
   * The stage's credits and what it adds to the reservation for them (`topUp`, taken from the balance
   * in the same transaction): the job's headroom must still hold `credits - topUp`. Absent for a job
   * without headroom (see JobRecord.creditsHeadroom).
   */
  spend?: { credits: number; topUp: number };
}

export type CommitOutcome = 'committed' | 'already_done' | 'job_closed';

/**
 * Advances the batch past `step` and adds its progress, units, counters and spend to the job, together;
 * `write` sends the items (a top-up of the reservation writes them with its money move).
 * The batch condition makes a redelivery a no-op; the job condition drops work of a job that was
 * cancelled or failed meanwhile. Parallel batches of one job contend on the job item, so a
 * transaction conflict is retried.
 */
export async function commitStage(
  c: StageCommit,
  write: (items: TransactItems) => Promise<unknown> = (items) =>
    retryingConflicts(() => writeTogether(items), { attempts: 21 }),
): Promise<CommitOutcome> {
  const counters = Object.entries(c.counters).filter(([, n]) => n);
  const spend = c.spend;
  const items = {
    batch: {
      Update: {
        TableName: table(),
        Key: jobBatchKey(c.jobId, c.batchNo),
        ...batches.update({
          set: {
            nextStep: c.step + 1,
            companies: c.companies,
            contacts: c.contacts,
            warnings: c.warnings.length ? c.warnings : undefined,
          },
          remove: ['lastError'],
          condition: { expression: 'nextStep = :step', values: { ':step': c.step } },
        }),
      },
    },
    job: {
      Update: {
        TableName: table(),
        Key: jobKey(c.userId, c.jobId),
        ...jobs.update({
          // gsi3sk is the committed progress: the watchdog measures staleness from here.
          set: { status: 'running', updatedAt: c.at, gsi3sk: jobWatchSortKey(c.jobId, c.at) },
          setIfNotExists: { startedAt: c.at },
          increment: {
            version: 1,
            doneUnits: c.rows,
            [`stageDone.${c.capability}`]: c.rows,
            [`units.${c.capability}`]: c.units,
            batchesDone: c.lastStep ? 1 : 0,
            ...Object.fromEntries(counters.map(([k, n]) => [`counters.${k}`, n])),
            ...(spend ? { creditsHeadroom: spend.topUp - spend.credits, creditsReserved: spend.topUp } : {}),
          },
          // A requested cancel freezes the units: work still in flight is dropped uncounted. Parallel batches
          // spend one headroom: the condition keeps it from going below zero.
          condition: live({
            expression: `attribute_not_exists(cancelRequestedAt)${spend ? ' AND creditsHeadroom >= :need' : ''}`,
            values: spend ? { ':need': spend.credits - spend.topUp } : {},
          }),
        }),
      },
    },
  };
  try {
    // Batches of one job commit in parallel and all move the job's counters: conflicts are expected.
    await write(items);
    return 'committed';
  } catch (err) {
    if (err instanceof TransactionConditionError && err.failed.has('batch')) return 'already_done';
    // Also a headroom that parallel batches used up: the caller reads the job again to tell.
    if (err instanceof TransactionConditionError && err.failed.has('job')) return 'job_closed';
    throw err;
  }
}

/**
 * Asks a live job to stop: from here on no batch can commit (see commitStage), so the units stop
 * moving and the job can be closed against a stable version. False when the job is no longer live.
 */
export async function requestJobCancel(userId: string, jobId: string, at: string): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: jobKey(userId, jobId),
        ...jobs.update({
          setIfNotExists: { cancelRequestedAt: at },
          set: { updatedAt: at },
          increment: { version: 1 },
          condition: live(),
        }),
      }),
    ),
  );
}

/** Kept for the dead-letter handler's error message; best effort. */
export async function recordBatchError(jobId: string, batchNo: number, message: string): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: table(),
      Key: jobBatchKey(jobId, batchNo),
      ...batches.update({ set: { lastError: message.slice(0, 500) }, condition: 'attribute_exists(pk)' }),
    }),
  );
}

export interface JobClosure {
  status: 'completed' | 'failed' | 'cancelled';
  creditsCharged: number;
  errorMessage: string | null;
  resultStored: boolean;
  rowsDelivered: number | null;
  duplicatesRemoved: number | null;
  rowsBySource?: Record<string, number>;
  /** The job's warnings when it closes (those it had, and what its stages reported). */
  warnings?: string[];
  at: string;
}

/**
 * Moves a live job to a terminal state, only if it is still at `expectedVersion` (so the charge
 * written with it matches the units counted so far).
 */
export function closeJobItem(
  userId: string,
  jobId: string,
  expectedVersion: number,
  closure: JobClosure,
): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: jobKey(userId, jobId),
      ...jobs.update({
        set: {
          status: closure.status,
          creditsCharged: closure.creditsCharged,
          errorMessage: closure.errorMessage,
          resultStored: closure.resultStored,
          rowsDelivered: closure.rowsDelivered,
          duplicatesRemoved: closure.duplicatesRemoved,
          rowsBySource: closure.rowsBySource,
          warnings: closure.warnings,
          completedAt: closure.at,
          updatedAt: closure.at,
        },
        increment: { version: 1 },
        remove: ['gsi3pk', 'gsi3sk'],
        condition: live({ expression: 'version = :version', values: { ':version': expectedVersion } }),
      }),
    },
  };
}

/** A live job as the watchdog's index shows it; `watchKey` is the index position it was seen at. */
export interface WatchedJob {
  job: JobRecord;
  watchKey: string;
}

/** Pending or running jobs whose last committed progress is at or before `upToIso`: a Query per shard of gsi3. */
export async function listStalledJobs(upToIso: string): Promise<WatchedJob[]> {
  const items = await queryDueShards(JOB_WATCH_SHARDS, jobWatchPartition, jobWatchUpTo(upToIso));
  return items.map((item) => ({ job: jobs.fromItem(item), watchKey: String(item.gsi3sk) }));
}

/**
 * Claims one re-drive of a stalled job: only if it is still live and has not moved in the index since
 * it was seen (so overlapping watchdogs re-drive it once). Its index position becomes `at`, which
 * gives the re-sent messages a full bound before the next look; `counted` spends the re-drive budget.
 */
export async function claimJobRedrive(w: WatchedJob, at: string, counted: boolean): Promise<boolean> {
  return writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: jobKey(w.job.userId, w.job.id),
        // ADD counts a missing redrives from 0.
        ...jobs.update({
          set: { gsi3sk: jobWatchSortKey(w.job.id, at) },
          add: { redrives: counted ? 1 : 0 },
          condition: live({ expression: 'gsi3sk = :seen', values: { ':seen': w.watchKey } }),
        }),
      }),
    ),
  );
}
