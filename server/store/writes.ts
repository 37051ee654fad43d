import type { UndoResponse } from '../audit/schemas.js';
import type { ErrorDetail } from '../http/errors.js';
import type { Principal } from '../http/guards.js';
import type { ImportOutcome } from '../locations/import.js';
import type { BulkEdit } from '../locations/schemas.js';
import type { PlanChannel, PlanJob } from './plan-channel.js';

/**
 * An import as the store is asked for it: the request and who asks, and the body's bytes in the pieces
 * they arrived in (server/http/body.ts), each with an ArrayBuffer of its own: moved, never copied, to the
 * thread that reads them.
 */
export type ImportWriteRequest = PlanJob['request'] & { body: Uint8Array[] };

/**
 * The writes done on the writer thread (store/writer-worker.ts), each one typed request and one reply,
 * each one synchronous transaction there: the long ones (an import of 100,000 rows, the deletion of a
 * client of 100,000 locations, a bulk change of thousands) that would block the server's event loop.
 * The caller's right is checked again inside each write's transaction (auth/authorize.ts).
 */
export interface Writes {
  importLocations: {
    /** With the channel to the planner thread that reads the body and decides the writes (store/plan-channel.ts). */
    request: ImportWriteRequest & { channel: PlanChannel };
    /** The answer's JSON as UTF-8 bytes in pieces, moved to the main thread without a copy; or the refusal. */
    reply: ImportOutcome;
  };
  deleteClient: {
    request: { principal: Principal; clientId: string; now: number };
    reply: { deleted: boolean };
  };
  deleteLocations: {
    /** `dryRun`: the ids and the rights checked, the count of what it would delete; nothing written (operation_id null). */
    request: { principal: Principal; ids: string[]; now: number; dryRun?: boolean };
    reply: { count: number; operation_id: string | null };
  };
  editLocations: {
    /** `dryRun`: the count of the locations it would change, nothing written (operation_id null). */
    request: { principal: Principal; ids: string[]; edit: BulkEdit; dryRun: boolean; now: number };
    reply: { count: number; operation_id: string | null };
  };
  undoOperation: {
    request: { principal: Principal; operationId: string; dryRun: boolean; now: number };
    reply: UndoResponse;
  };
  /** Copies the WAL into the database file: the writer thread is the only connection that does. */
  checkpoint: { request: Record<string, never>; reply: null };
}

export type WriteKind = keyof Writes;

/** To the writer thread. */
export interface WriteMessage<K extends WriteKind = WriteKind> {
  id: number;
  kind: K;
  request: Writes[K]['request'];
}

/** From the writer thread: the reply, a refusal in the API's words (a 4xx), or an unexpected failure. */
export type WriteAnswer =
  | { id: number; ok: true; reply: unknown }
  | { id: number; ok: false; refusal: { statusCode: number; message: string; details?: ErrorDetail[] } }
  | { id: number; ok: false; failure: string };
