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
import { JOB_WATCH_SHARDS, jobBatchesPartition, jobBatchKey, jobKey, jobsPartition, jobWatchIndexKey, jobWatchPartition, jobWatchSortKey, jobWatchUpTo } from './keys';
import { cancellationCodes, type TransactItem, writeTogether } from './transactions';

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
  creditsReserved: number;
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
}

const strip = <T>({ pk: _p, sk: _s, entity: _e, ttl: _t, gsi3pk: _wp, gsi3sk: _ws, ...rest }: Record<string, unknown>) => rest as T;

export function putJobItem(job: JobRecord): TransactItem {
  return {
    Put: { TableName: table(), Item: { ...jobKey(job.userId, job.id), entity: 'job', ...job, ...jobWatchIndexKey(job.id, job.createdAt) }, ConditionExpression: 'attribute_not_exists(pk)' },
  };
}

export async function getJob(userId: string, jobId: string, consistent = false): Promise<JobRecord | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: jobKey(userId, jobId), ConsistentRead: consistent }));
  return Item ? strip<JobRecord>(Item) : undefined;
}

/** A user's jobs, oldest first (UUID v7 sort keys). */
export async function listJobs(userId: string): Promise<JobRecord[]> {
  const { pk, prefix } = jobsPartition(userId);
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix } });
  return items.map((i) => strip<JobRecord>(i));
}

/** Work batches are written before the job record; until it exists nothing points at them, and the ttl clears them. */
export async function putBatches(batches: BatchRecord[], ttlSeconds: number): Promise<void> {
  await putAll(batches.map((b) => ({ ...jobBatchKey(b.jobId, b.batchNo), entity: 'jobBatch', ttl: ttlSeconds, ...b })));
}

export async function getBatch(jobId: string, batchNo: number): Promise<BatchRecord | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: table(), Key: jobBatchKey(jobId, batchNo), ConsistentRead: true }));
  return Item ? strip<BatchRecord>(Item) : undefined;
}

export async function listBatches(jobId: string): Promise<BatchRecord[]> {
  const { pk, prefix } = jobBatchesPartition(jobId);
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix }, ConsistentRead: true });
  return items.map((i) => strip<BatchRecord>(i));
}

/** pending → running when the first message is picked up; a no-op for any other state. */
export async function markJobStarted(userId: string, jobId: string, at: string): Promise<void> {
  await writeIfCondition(() =>
    ddb().send(
      new UpdateCommand({
        TableName: table(),
        Key: jobKey(userId, jobId),
        UpdateExpression: 'SET #status = :running, startedAt = :at, updatedAt = :at, version = version + :one',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':running': 'running', ':pending': 'pending', ':at': at, ':one': 1 },
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
  lastStep: boolean;
  at: string;
}

export type CommitOutcome = 'committed' | 'already_done' | 'job_closed';

/**
 * Advances the batch past `step` and adds its progress, units and counters to the job, together.
 * The batch condition makes a redelivery a no-op; the job condition drops work of a job that was
 * cancelled or failed meanwhile. Parallel batches of one job contend on the job item, so a
 * transaction conflict is retried.
 */
export async function commitStage(c: StageCommit): Promise<CommitOutcome> {
  const counters = Object.entries(c.counters).filter(([, n]) => n);
  const jobSets = [
    '#status = :running',
    'startedAt = if_not_exists(startedAt, :at)',
    'updatedAt = :at',
    // Committed progress: the watchdog measures staleness from here.
    'gsi3sk = :watch',
    'version = version + :one',
    'doneUnits = doneUnits + :rows',
    'stageDone.#cap = stageDone.#cap + :rows',
    'units.#cap = units.#cap + :units',
    'batchesDone = batchesDone + :finished',
    ...counters.map((_, i) => `counters.#c${i} = counters.#c${i} + :c${i}`),
  ];
  const items: TransactItem[] = [
    {
      Update: {
        TableName: table(),
        Key: jobBatchKey(c.jobId, c.batchNo),
        UpdateExpression: 'SET nextStep = :next, companies = :companies, contacts = :contacts REMOVE lastError',
        ConditionExpression: 'nextStep = :step',
        ExpressionAttributeValues: { ':next': c.step + 1, ':step': c.step, ':companies': c.companies, ':contacts': c.contacts },
      },
    },
    {
      Update: {
        TableName: table(),
        Key: jobKey(c.userId, c.jobId),
        UpdateExpression: `SET ${jobSets.join(', ')}`,
        // A requested cancel freezes the units: work still in flight is dropped uncounted.
        ConditionExpression: '#status IN (:pending, :running) AND attribute_not_exists(cancelRequestedAt)',
        ExpressionAttributeNames: { '#status': 'status', '#cap': c.capability, ...Object.fromEntries(counters.map(([k], i) => [`#c${i}`, k])) },
        ExpressionAttributeValues: {
          ':running': 'running',
          ':pending': 'pending',
          ':at': c.at,
          ':watch': jobWatchSortKey(c.jobId, c.at),
          ':one': 1,
          ':rows': c.rows,
          ':units': c.units,
          ':finished': c.lastStep ? 1 : 0,
          ...Object.fromEntries(counters.map(([, n], i) => [`:c${i}`, n])),
        },
      },
    },
  ];
  for (let attempt = 0; ; attempt++) {
    try {
      await writeTogether(items);
      return 'committed';
    } catch (err) {
      const codes = cancellationCodes(err);
      if (codes[0] === 'ConditionalCheckFailed') return 'already_done';
      if (codes[1] === 'ConditionalCheckFailed') return 'job_closed';
      if (!codes.includes('TransactionConflict') || attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * Math.min(10 * 2 ** attempt, 200)));
    }
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
        UpdateExpression: 'SET cancelRequestedAt = if_not_exists(cancelRequestedAt, :at), updatedAt = :at, version = version + :one',
        ConditionExpression: '#status IN (:pending, :running)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':at': at, ':one': 1, ':pending': 'pending', ':running': 'running' },
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
      UpdateExpression: 'SET lastError = :m',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':m': message.slice(0, 500) },
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
  at: string;
}

/**
 * Moves a live job to a terminal state, only if it is still at `expectedVersion` (so the charge
 * written with it matches the units counted so far).
 */
export function closeJobItem(userId: string, jobId: string, expectedVersion: number, closure: JobClosure): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: jobKey(userId, jobId),
      UpdateExpression:
        'SET #status = :status, creditsCharged = :charged, errorMessage = :error, resultStored = :stored, rowsDelivered = :rows, duplicatesRemoved = :dups, completedAt = :at, updatedAt = :at, version = version + :one REMOVE gsi3pk, gsi3sk',
      ConditionExpression: '#status IN (:pending, :running) AND version = :version',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':status': closure.status,
        ':charged': closure.creditsCharged,
        ':error': closure.errorMessage,
        ':stored': closure.resultStored,
        ':rows': closure.rowsDelivered,
        ':dups': closure.duplicatesRemoved,
        ':at': closure.at,
        ':one': 1,
        ':pending': 'pending',
        ':running': 'running',
        ':version': expectedVersion,
      },
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
  return items.map((item) => ({ job: strip<JobRecord>(item), watchKey: item.gsi3sk as string }));
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
        UpdateExpression: 'SET gsi3sk = :next, redrives = if_not_exists(redrives, :zero) + :inc',
        ConditionExpression: '#status IN (:pending, :running) AND gsi3sk = :seen',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':next': jobWatchSortKey(w.job.id, at),
          ':seen': w.watchKey,
          ':zero': 0,
          ':inc': counted ? 1 : 0,
          ':pending': 'pending',
          ':running': 'running',
        },
      }),
    ),
  );
}
