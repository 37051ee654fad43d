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
  payload: Uint8Array;
  failure?: string;
}

const { file, key } = workerData as { file: string; key: DatabaseKey };
const db = openDatabase(file, key);
const port = parentPort!;
const encoder = new TextEncoder();

port.on('message', (message: WorkerRequest | 'close') => {
  if (message === 'close') {
    db.close();
    port.close();
    return;
  }
  const outcome = runImportJobSafely(db, message.job);
  const payload = encoder.encode(outcome.payload);
  const response: WorkerResponse = { id: message.id, statusCode: outcome.statusCode, payload };
  if (outcome.failure !== undefined) response.failure = outcome.failure;
  port.postMessage(response, [payload.buffer as ArrayBuffer]);
});
port.postMessage('ready');
