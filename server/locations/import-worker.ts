import { parentPort, type MessagePort } from 'node:worker_threads';
import {
  failedJob,
  waitForWriter,
  type Connect,
  type ParserMessage,
  type ParserRequest,
  type RowsMessage,
} from '../db/writer-jobs.js';
import type { DuplicatePolicy } from './schemas.js';
import {
  addExisting,
  checkImport,
  parseImport,
  previewImport,
  type ParsedImport,
  type SendPiece,
} from './import-job.js';
import { DuplicateIndex } from './import-plan.js';

/**
 * The parser thread: reads an import's body and checks its rows off the event loop, and hands the
 * checked rows to the writer thread piece by piece, so that SQLite inserts one piece while the next is
 * checked (server/db/writer.ts). It never touches the database.
 */
const port = parentPort!;
/** The channel to the writer thread (server/db/writer.ts connects the two). */
let writer: MessagePort | undefined;

/** Imports parsed and waiting for the writer to open them, with the existing locations it has sent. */
const waiting = new Map<
  number,
  ParsedImport & { dryRun: boolean; duplicates: DuplicatePolicy; existing: DuplicateIndex }
>();

const post = (message: ParserMessage) => port.postMessage(message);

function handle(message: ParserRequest): void {
  switch (message.kind) {
    case 'parse': {
      const parsed = parseImport(message.body);
      if ('statusCode' in parsed) return post({ id: message.id, kind: 'outcome', outcome: parsed });
      const existing = new DuplicateIndex();
      waiting.set(message.id, { ...parsed, dryRun: message.dryRun, duplicates: message.duplicates, existing });
      return post({ id: message.id, kind: 'open', clientId: parsed.clientId });
    }
    case 'existing': {
      const job = waiting.get(message.id);
      if (job !== undefined) addExisting(job.existing, message.json);
      return;
    }
    case 'opened': {
      const job = waiting.get(message.id);
      if (job === undefined) return;
      waiting.delete(message.id);
      const send: SendPiece = (stream, json) =>
        port.postMessage({ id: message.id, kind: 'piece', stream, json } satisfies ParserMessage, [
          json.buffer as ArrayBuffer,
        ]);
      if (job.dryRun) {
        const outcome = previewImport(job.rows, job.existing, job.duplicates, send);
        return post({ id: message.id, kind: 'outcome', outcome });
      }
      const toWriter = (rows: RowsMessage) => writer!.postMessage(rows);
      let sent = 0;
      const sendRows = (json: string): boolean => {
        if (!waitForWriter(message.progress, sent)) return false;
        toWriter({ id: message.id, kind: 'rows', json });
        sent++;
        return true;
      };
      const checked = checkImport(job.rows, job.existing, job.duplicates, sendRows, send);
      // Ended meanwhile (the writer failed, or a thread stopped): nobody waits for an answer.
      if (checked === undefined) return;
      if ('statusCode' in checked) return post({ id: message.id, kind: 'outcome', outcome: checked });
      // The writer commits and answers the server thread.
      return toWriter({ id: message.id, kind: 'end', count: checked.count, pieces: checked.pieces });
    }
    case 'forget':
      waiting.delete(message.id);
  }
}

port.on('message', (message: ParserRequest | Connect | 'close') => {
  if (message === 'close') {
    writer?.close();
    return port.close();
  }
  if (message.kind === 'connect') {
    writer?.close();
    writer = message.port;
    return;
  }
  try {
    handle(message);
  } catch (error) {
    waiting.delete(message.id);
    post({ id: message.id, kind: 'outcome', outcome: failedJob(error) });
  }
});
port.postMessage('ready');
