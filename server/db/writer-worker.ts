import { parentPort, workerData } from 'node:worker_threads';
import type { DatabaseKey } from './key.js';
import { openDatabase, WRITER_CACHE_MIB } from './open.js';
import { runWriterJob, type WriterJob } from './writer-jobs.js';

/**
 * The writer worker: its own connection to the database, so that a 100,000-row import (parse, check,
 * one write transaction) or the deletion of a big client never blocks the server's event loop, while
 * WAL lets the server's reads go on.
 */
export interface WorkerRequest {
  id: number;
  job: WriterJob;
}

export interface WorkerResponse {
  id: number;
  statusCode: number;
  /** JSON text: copying a string to the server thread is a memcpy, cheaper than encoding it here. */
  payload: string;
  failure?: string;
}

export interface WorkerData {
  file: string;
  key: DatabaseKey;
  /** The server connection's driver addon (Store.nativeBinding): both threads must load the same build. */
  nativeBinding: string | undefined;
}

const { file, key, nativeBinding } = workerData as WorkerData;
const db = openDatabase(file, key, { cacheMiB: WRITER_CACHE_MIB, nativeBinding });
const port = parentPort!;

port.on('message', (message: WorkerRequest | 'close') => {
  if (message === 'close') {
    db.close();
    port.close();
    return;
  }
  const outcome = runWriterJob(db, message.job);
  const response: WorkerResponse = { id: message.id, statusCode: outcome.statusCode, payload: outcome.payload };
  if (outcome.failure !== undefined) response.failure = outcome.failure;
  port.postMessage(response);
});
port.postMessage('ready');
