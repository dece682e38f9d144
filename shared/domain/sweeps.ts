import { logger } from '#shared/observability/logger';

/**
 * One background job of a scheduled function: how it runs, and when its report is worth a log line
 * (most runs find nothing to do, and a line each would bury the ones that did something).
 */
export interface Sweep<R extends object> {
  run: () => Promise<R>;
  /** The log line's message when the sweep did something; its report is the line's fields. */
  log: string;
  // A method, so that a table of differently shaped sweeps still fits one Record<string, Sweep<object>>.
  didWork(report: R): boolean;
}

/** A row of a table of sweeps, its report's type inferred from `run`. */
export const sweep = <R extends object>(row: Sweep<R>): Sweep<R> => row;

type Reports<T extends Record<string, Sweep<object>>> = { [K in keyof T]: T[K] extends Sweep<infer R> ? R : never };

/**
 * Runs every sweep of the table side by side and answers their reports by row name. One that throws
 * fails the run, so the schedule's retry runs them all again; each works from now(), so a sweep that
 * had finished simply finds less to do the second time.
 */
export async function runSweeps<T extends Record<string, Sweep<object>>>(sweeps: T): Promise<Reports<T>> {
  const reports = await Promise.all(
    Object.entries(sweeps).map(async ([name, row]) => {
      const report = await row.run();
      if (row.didWork(report)) logger.info(row.log, { ...report });
      return [name, report] as const;
    }),
  );
  // Object.fromEntries loses the pairing of each name with its own report's type.
  return Object.fromEntries(reports) as Reports<T>;
}
