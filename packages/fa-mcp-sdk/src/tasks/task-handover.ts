/**
 * Who runs a task whose instance is gone, and what its record says: the rules
 * of a handover at a planned stop (the lease released with its reason, the
 * re-run not counted) and of a take-over after a crash (the lease ran out,
 * the re-run counted against MAX_TASK_ATTEMPTS).
 */
import type { ITaskRecord, TTaskPatch } from './task-types.js';

/**
 * Runs of one task that crashes may cost at most: the first, and one re-run after its instance
 * vanished (lease expired). Re-runs after a planned stop (handovers) are not counted.
 */
export const MAX_TASK_ATTEMPTS = 2;

const CRASH_MESSAGE = 'The server instance running this task stopped before it finished; call the tool again.';

/** The status of a task a planned stop interrupted and nobody may run again (its tool is not idempotent). */
function plannedStopMessage(instance: string): string {
  return `Interrupted by a planned stop of instance ${instance} before it finished; the tool is not idempotent, so it is not run again: call the tool again.`;
}

/**
 * True when the task's lease was released at a planned stop by the instance
 * that still holds it, i.e. nobody claimed it since (a claim clears `release`
 * and takes the lease; an older instance that does not know `release` takes the
 * lease without clearing it, and its crash is then still seen as a crash).
 */
export function releasedAtPlannedStop(record: ITaskRecord): boolean {
  return record.release?.reason === 'planned_stop' && record.release.instance === record.leaseOwner;
}

/** Whether an orphan may run once more: always after a planned stop, after a crash only within MAX_TASK_ATTEMPTS counted runs. */
export function mayRunAgain(record: ITaskRecord): boolean {
  return releasedAtPlannedStop(record) || record.attempts - (record.handovers ?? 0) < MAX_TASK_ATTEMPTS;
}

/** The compare-and-set write that makes `instanceId` the one running an orphan again. */
export function claimPatch(record: ITaskRecord, instanceId: string, leaseExpiresAt: number): TTaskPatch {
  const planned = releasedAtPlannedStop(record);
  return {
    status: 'working',
    statusMessage: planned ? 'Running again on another instance: the one running it was stopped (a planned stop)' : 'Running again: the instance that ran it stopped',
    leaseOwner: instanceId,
    leaseExpiresAt,
    attempts: record.attempts + 1,
    ...(planned ? { handovers: (record.handovers ?? 0) + 1, release: undefined } : {}),
    inputRequests: undefined,
    inputResponses: undefined,
  };
}

/** An orphan nobody may run again: failed, saying whether a planned stop or a crash ended its run. */
export function orphanFailurePatch(record: ITaskRecord): TTaskPatch {
  if (releasedAtPlannedStop(record) && record.release) return { ...plannedStopFailurePatch(record.release.instance), release: undefined };
  return { status: 'failed', statusMessage: CRASH_MESSAGE };
}

/** A stopping instance hands a task over: its lease expires now, with the reason. */
export function releasePatch(instanceId: string, now: number): TTaskPatch {
  return {
    leaseExpiresAt: 0,
    release: { reason: 'planned_stop', instance: instanceId, at: now },
    statusMessage: 'Its instance is stopping (a planned stop); another instance takes it over',
  };
}

/** A stopping instance fails a task whose tool may not run twice: it was interrupted mid-way. */
export function plannedStopFailurePatch(instanceId: string): TTaskPatch {
  return { status: 'failed', statusMessage: plannedStopMessage(instanceId) };
}
