import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { actorOf } from '../audit/queries.js';
import { authorizeWrite } from '../auth/authorize.js';
import { openDatabase } from '../db/open.js';
import { joinPieces } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { NEEDS } from '../http/guards.js';
import { xlsxCells } from '../imports/xlsx-cells.js';
import { importPlan, readImport, type ImportOutcome, type ImportRequest } from '../locations/import.js';
import { NO_WRITES } from '../locations/import-writes.js';
import { idleCollector } from '../memory.js';
import { runInBackground } from '../thread-priority.js';
import { PlannerEnd, WriterGone, type PlanJob } from './plan-channel.js';
import type { WorkerData } from './writer-worker.js';

/**
 * The planner thread: the import's reading, checking and deciding, beside the writer thread that makes
 * its writes (store/plan-channel.ts). Its own connection only reads (query_only), inside a read
 * transaction that begins once the writer holds the import's write transaction: it sees the database as
 * the writer does, and nobody else can write meanwhile.
 */
const { file, key, nativeBinding } = workerData as WorkerData;
// Below the event loop: the server's answers come first when both want a core (thread-priority.ts).
runInBackground();
/** Its page cache: the client's key indexes and the locations an upsert reads. */
const PLANNER_CACHE_MIB = 8;
const db = openDatabase(file, key, { cacheMiB: PLANNER_CACHE_MIB, nativeBinding });
db.pragma('query_only = ON');
const port = parentPort!;

/** The request as the import reads it, with the caller's right and name read inside its transaction. */
function importRequest(job: PlanJob, body: ImportRequest['body']): ImportRequest {
  const { principal, ...request } = job.request;
  return {
    ...request,
    body,
    authorize: (db, clientId) => authorizeWrite(db, principal, { ...NEEDS.import, clientId }, request.now),
    actor: (db) => actorOf(db, principal),
  };
}

/** An .xlsx body unzipped into cells (async: before the plan), anything else in the pieces it came in. */
async function prepared(job: PlanJob): Promise<ImportRequest | ImportOutcome> {
  const { format } = job.request;
  if (format?.kind !== 'xlsx' || format.cells !== undefined) return importRequest(job, job.body);
  const body = joinPieces(job.body);
  const read = await xlsxCells(body, format.sheet);
  if ('statusCode' in read) return read;
  const { cells, hiddenColumns, sheet } = read;
  return importRequest(
    { ...job, request: { ...job.request, format: { ...format, cells, hiddenColumns, sheet } } },
    body,
  );
}

async function plan(job: PlanJob, end: PlannerEnd): Promise<void> {
  try {
    const request = await prepared(job);
    if (!('organizationId' in request)) return end.post({ kind: 'done', outcome: request });
    const body = readImport(request);
    if ('statusCode' in body) return end.post({ kind: 'done', outcome: body });
    // Made while the writer begins the transaction: nothing of it reads the database.
    const plan = importPlan(db, request, body, request.dryRun ? NO_WRITES : end);
    end.post({ kind: 'ready' });
    end.waitForGo();
    const outcome = db.transaction(() => plan.run())();
    end.finish(outcome);
  } catch (error) {
    // The writer gave up (it failed, or stopped): nobody waits for an answer.
    if (error instanceof WriterGone) return;
    // A refusal in the API's words (a 4xx: the caller lost the right, a mapping of another client): the
    // writer rolls back whatever it made of the import, and answers it.
    if (error instanceof HttpError && error.statusCode < 500) {
      const { statusCode, message, details } = error;
      return end.post({ kind: 'done', outcome: { statusCode, message, ...(details ? { details } : {}) } });
    }
    end.post({ kind: 'failed', failure: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

/** An import's garbage collected once the thread is idle (memory.ts). */
const collector = idleCollector();

// One import at a time, in order, even while an .xlsx file is being unzipped.
let queue = Promise.resolve();
port.on('message', (message: { port: MessagePort; signal: Int32Array } | 'close') => {
  if (message === 'close') {
    queue = queue.then(() => {
      db.close();
      port.close();
    });
    return;
  }
  const { port: jobPort, signal } = message;
  jobPort.once('message', (job: PlanJob) => {
    queue = queue.then(() => {
      // Here, not as the job arrives: an .xlsx job before it may still be unzipping, and collect after.
      collector.cancel();
      return plan(job, new PlannerEnd({ port: jobPort, signal })).finally(() => {
        jobPort.close();
        collector.soon();
      });
    });
  });
});
port.postMessage('ready');
