import type { Db } from '../db/open.js';
import { applyImportWrites, type ImportWrite } from '../locations/import-writes.js';
import { wentAway, type ImportOutcome } from '../locations/import.js';
import type { Refusal } from '../locations/import-body.js';
import { WriterEnd, type PlanChannel, type PlanJob } from './plan-channel.js';

/** Thrown inside the import's transaction to roll it back with the planner's refusal. */
class RolledBack extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

/**
 * An import on the writer thread, its plan on the planner thread (store/planner-worker.ts): the body
 * goes to the planner, which reads and checks it; then the writer begins the one transaction, and the
 * planner, reading the database as it is at that moment on its own connection, sends the writes of
 * each piece of rows, which the writer makes as they come; its answer ends the transaction. A refusal
 * (a row not valid, a client not the caller's) rolls back whatever was written.
 */
export function plannedImport(db: Db, channel: PlanChannel, job: PlanJob): ImportOutcome {
  const planner = new WriterEnd(channel);
  try {
    planner.send(
      job,
      job.body.map((piece) => piece.buffer as ArrayBuffer),
    );
    // The body's pieces went with the job (transferred): nothing here holds them.
    job.body.length = 0;
    const first = planner.receive();
    // Refused as it was read (not JSON, too big...): no transaction was begun.
    if (first.kind === 'done') return first.outcome;
    if (first.kind !== 'ready') return unexpected(first);
    const run = () => {
      planner.go();
      return takeWrites(db, planner, job.request);
    };
    return job.request.dryRun ? run() : db.transaction(run).immediate();
  } catch (error) {
    if (error instanceof RolledBack) return error.refusal;
    planner.abort();
    throw error;
  } finally {
    planner.close();
  }
}

/** Makes the planner's writes as they come, until its answer. */
function takeWrites(db: Db, planner: WriterEnd, request: PlanJob['request']): ImportOutcome {
  const { dryRun } = request;
  for (;;) {
    const message = planner.receive();
    if (message.kind === 'writes') applyImportWrites(db, JSON.parse(message.json) as ImportWrite[]);
    else if (message.kind === 'done') {
      const { outcome } = message;
      if (!('bytes' in outcome) && !dryRun) throw new RolledBack(outcome);
      // The client may have gone while the last pieces were written: nobody would read the answer.
      const gone = dryRun ? null : wentAway(request);
      if (gone !== null) throw new RolledBack(gone);
      return outcome;
    } else return unexpected(message);
  }
}

function unexpected(message: { kind: string; failure?: string }): never {
  throw new Error(
    message.kind === 'failed'
      ? `the planner failed: ${message.failure}`
      : `unexpected ${message.kind} from the planner`,
  );
}
