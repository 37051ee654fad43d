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

/** The page's messages, one handler each (the job does the work). */
const HANDLERS: { [K in ToWorker['type']]: (message: Extract<ToWorker, { type: K }>) => Promise<void> | void } = {
  read: (message) => job.read(fileSource(message.file), message.encoding, message.sheet),
  map: (message) => job.map(message.mapping),
  options: (message) => job.setOptions(message.options),
  check: (message) => job.check(message.clientId, message.choice),
  fix: (message) => job.fix(message.row, message.field, message.value),
  'leave-out': (message) => job.leave(message.rows, message.leftOut),
  import: (message) => job.import(message.clientId, message.duplicates, message.choice, message.savedMapping),
  token: (message) => {
    pendingToken?.(message.token);
    pendingToken = null;
  },
  grid: (message) => job.grid(message.id, message.filter, message.start, message.end, message.selected),
  'set-values': (message) => job.setValues(message.target, message.field, message.value),
  replace: (message) => job.replace(message.target, message.field, message.find, message.replace, message.apply),
  'undo-fix': () => job.undoFix(),
  'problems-csv': () => job.problemsCsv(),
  cancel: () => job.cancel(),
};

async function handle(message: ToWorker): Promise<void> {
  // Each handler takes the message of its own type (TypeScript cannot pair a union's key and value).
  const handler = HANDLERS[message.type] as (message: ToWorker) => Promise<void> | void;
  await handler(message);
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
