import { parentPort, workerData } from 'node:worker_threads';
import type { DatabaseKey } from '../db/key.js';
import { openDatabase } from '../db/open.js';
import { runImportJobSafely, type ImportJob } from './import-job.js';

/**
 * The import worker: its own connection to the database, so that a 100,000-row import (parse, check,
 * one write transaction) never blocks the server's event loop, while WAL lets the server's reads go on.
 */
export interface WorkerRequest {
  id: number;
  job: ImportJob;
}

export interface WorkerResponse {
  id: number;
  statusCode: number;
  /** JSON text: copying a string to the server thread is a memcpy, cheaper than encoding it here. */
  payload: string;
  failure?: string;
}

const { file, key } = workerData as { file: string; key: DatabaseKey };
const db = openDatabase(file, key);
const port = parentPort!;

port.on('message', (message: WorkerRequest | 'close') => {
  if (message === 'close') {
    db.close();
    port.close();
    return;
  }
  const outcome = runImportJobSafely(db, message.job);
  const response: WorkerResponse = { id: message.id, statusCode: outcome.statusCode, payload: outcome.payload };
  if (outcome.failure !== undefined) response.failure = outcome.failure;
  port.postMessage(response);
});
port.postMessage('ready');
