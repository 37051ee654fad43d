import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Static } from '@sinclair/typebox';
import type { UndoResponse } from '../../../server/audit/schemas.js';
import { ApiError } from '../api/http.js';
import { keys } from '../api/queries.js';
import { authorized } from '../api/session.js';

export type Undo = Static<typeof UndoResponse>;

/** The undo of an operation, as the server answers it (POST /api/operations/:id/undo). */
export const undoPath = (operationId: string) => `/api/operations/${encodeURIComponent(operationId)}/undo`;

/**
 * Undone already (in another tab, by a script): the server's 409 that says so. Its other 409, an import
 * whose client was deleted since, is not this one (the review: it was titled "Undone already").
 */
export const isUndoneAlready = (error: unknown) =>
  error instanceof ApiError && error.status === 409 && error.message.startsWith('This operation was undone already');

/**
 * Undoes an operation; afterwards (or when it was undone meanwhile, and what the page shows is out of
 * date: a walk) every history, the client's locations and their counts are read again.
 */
export function useUndo(clientId: string, operationId: string) {
  const cache = useQueryClient();
  const refresh = () =>
    Promise.all([
      // Every history: the client's, and each location's (an undo is in the history of each it changed).
      cache.invalidateQueries({ queryKey: ['history'] }),
      cache.invalidateQueries({ queryKey: keys.locations(clientId) }),
      cache.invalidateQueries({ queryKey: keys.clients }),
      cache.invalidateQueries({ queryKey: ['location'] }),
    ]);
  return useMutation({
    mutationFn: async () => (await authorized<Undo>(undoPath(operationId), { method: 'POST' })).data,
    onSuccess: refresh,
    onError: (error) => (isUndoneAlready(error) ? refresh() : undefined),
  });
}
