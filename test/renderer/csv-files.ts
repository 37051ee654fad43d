import { readFileSync } from 'node:fs';
import { decodeSource, type ByteSource, type Decoded } from '../../renderer/src/import/decode.js';
import { ImportJob } from '../../renderer/src/import/import-job.js';
import { rowCountOf, valuesOf, type CsvTable } from '../../renderer/src/import/parse-csv.js';
import type { FromWorker } from '../../renderer/src/import/protocol.js';

export const FIXTURES = new URL('../fixtures/csv/', import.meta.url);

/** A Buffer read the way the worker reads a File: a slice at a time. */
export function bufferSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: async (start, end) => bytes.subarray(start, end) };
}

export const fixtureBytes = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, FIXTURES)));

export async function decodeFixture(name: string): Promise<Decoded> {
  return decodeSource(bufferSource(fixtureBytes(name)));
}

/** The decoded text of a fixture, failing the test when it does not decode. */
export async function fixtureText(name: string): Promise<{ text: string; encoding: string }> {
  const decoded = await decodeFixture(name);
  if (!decoded.ok) throw new Error(`${name} did not decode: ${decoded.message}`);
  return decoded;
}

/** Every data row's values, as the import job gets them row by row. */
export function rowsOf(table: CsvTable): string[][] {
  return Array.from({ length: rowCountOf(table) }, (_, row) => valuesOf(table, row));
}

/** A table as its reader sees it: the same rows, lines and problems, however its text was cut into pieces. */
export function readingOf(table: CsvTable) {
  const { texts: _pieces, ...reading } = table;
  return { ...reading, rows: rowsOf(table) };
}

/** An import job that uploads nothing, and every message it sends the page (reading a file needs no server). */
export function jobMessages() {
  const messages: FromWorker[] = [];
  const job = new ImportJob({
    send: (message) => messages.push(message),
    token: async () => null,
    post: async () => {
      throw new Error('no upload in this test');
    },
  });
  return { job, messages };
}
