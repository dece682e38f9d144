/**
 * The sweeps of the platforms' own queued work (Discord's AutoMod syncs): each platform's work
 * declares how to send again what a lost queue message left due, and under which name it reports.
 */
import type { RequeueReport } from '#shared/platforms/contract';
import { PLATFORM_WORK } from '#shared/platforms/registry';
import { sweep, type Sweep } from '#shared/domain/sweeps';
import { PLATFORM_CORE } from './platformCore';

/** One row per platform work for the renewals function's table of sweeps, named by the work. */
export const platformWorkSweeps = (): Record<string, Sweep<RequeueReport>> =>
  Object.fromEntries(
    [...PLATFORM_WORK.values()].map((work) => [
      work.sweep.name,
      sweep({ run: () => work.requeue(PLATFORM_CORE), log: work.sweep.log, didWork: (r) => r.requeued > 0 }),
    ]),
  );

/** The local runtime's start (its queue died with the last process): every request still wanted is sent again. */
export const resumePlatformWork = (): Promise<{ resumed: string; report: RequeueReport }[]> =>
  Promise.all(
    [...PLATFORM_WORK.values()].map(async (work) => ({
      resumed: work.sweep.resumed,
      report: await work.requeue(PLATFORM_CORE, { resume: true }),
    })),
  );
