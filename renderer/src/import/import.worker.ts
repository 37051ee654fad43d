/// <reference lib="webworker" />
import { postWithProgress } from '../api/upload.js';
import { ImportJob } from './import-job.js';
import type { FromWorker, ToWorker } from './protocol.js';

/** The import worker: papaparse, mapping and the upload requests run here, off the page's thread. */
declare const self: DedicatedWorkerGlobalScope;

let pendingToken: ((token: string | null) => void) | null = null;
let tokenQueue: Promise<unknown> = Promise.resolve();

const send = (message: FromWorker) => self.postMessage(message);

/** Asks the page (which owns the session) for an access token; one question at a time. */
function token(renew: boolean): Promise<string | null> {
  const answer = tokenQueue.then(
    () =>
      new Promise<string | null>((resolve) => {
        pendingToken = resolve;
        send({ type: 'need-token', renew });
      }),
  );
  tokenQueue = answer;
  return answer;
}

const job = new ImportJob({ send, token, post: postWithProgress });

function fileSource(file: File) {
  return {
    name: file.name,
    size: file.size,
    read: async (start: number, end: number) => new Uint8Array(await file.slice(start, end).arrayBuffer()),
  };
}

async function handle(message: ToWorker): Promise<void> {
  switch (message.type) {
    case 'read':
      return job.read(fileSource(message.file), message.encoding, message.sheet);
    case 'map':
      return job.map(message.mapping);
    case 'check':
      return job.check(message.clientId, message.choice);
    case 'fix':
      return job.fix(message.row, message.field, message.value);
    case 'leave-out':
      return job.leave(message.rows, message.leftOut);
    case 'import':
      return job.import(message.clientId, message.duplicates, message.choice);
    case 'token':
      pendingToken?.(message.token);
      pendingToken = null;
      return;
    case 'grid':
      return job.grid(message.id, message.filter, message.start, message.end);
    case 'set-values':
      return job.setValues(message.target, message.field, message.value);
    case 'replace':
      return job.replace(message.target, message.field, message.find, message.replace, message.apply);
    case 'undo-fix':
      return job.undoFix();
    case 'problems-csv':
      return job.problemsCsv();
    case 'cancel':
      return job.cancel();
  }
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  handle(event.data).catch((error: unknown) => {
    send({
      type: 'failed',
      stage: 'reading',
      error: { status: 0, message: `The import stopped unexpectedly: ${String(error)}`, details: [], retryAfter: null },
    });
  });
};
