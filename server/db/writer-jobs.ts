import type { Db } from './open.js';
import { deleteClient } from '../clients/queries.js';
import { errorBody } from '../http/errors.js';
import { runImportJob, type ImportJob } from '../locations/import-job.js';

/**
 * The writes that can take seconds on a big client, done by the writer worker on its own connection
 * so that the server's event loop never waits for them.
 */
export type WriterJob =
  ({ kind: 'import' } & ImportJob) | { kind: 'delete-client'; organizationId: string; clientId: string };

export interface WriterOutcome {
  statusCode: number;
  /** The response body, already JSON. */
  payload: string;
  /** For the server log when the job failed unexpectedly. */
  failure?: string;
}

export function runWriterJob(db: Db, job: WriterJob): WriterOutcome {
  try {
    switch (job.kind) {
      case 'import':
        return runImportJob(db, job);
      case 'delete-client':
        // The schema's ON DELETE CASCADE takes the locations and the Client Viewers with their sessions.
        return deleteClient(db, job.organizationId, job.clientId)
          ? { statusCode: 200, payload: JSON.stringify({ success: true }) }
          : { statusCode: 404, payload: JSON.stringify(errorBody(404, 'No client with this id')) };
    }
  } catch (error) {
    return {
      statusCode: 500,
      payload: JSON.stringify(errorBody(500, 'The change failed; nothing was changed')),
      failure: (error as Error).stack ?? String(error),
    };
  }
}
