import { useMutation, useQuery } from '@tanstack/react-query';
import type { UndoResponse } from '../../../../../server/audit/schemas.js';
import { authorized } from '../../../api/session.js';

/** What undoing a whole import does, added up over its requests' operations. */
export interface ImportUndo {
  removed: number;
  restored: number;
  recreated: number;
  conflicts: UndoResponse['conflicts'];
}

const undoPath = (operation: string, dryRun: boolean) =>
  `/api/operations/${encodeURIComponent(operation)}/undo${dryRun ? '?dryRun=true' : ''}`;

/** Each operation's undo (or its dry run), newest first, added up. */
async function undoAll(operations: readonly string[], dryRun: boolean): Promise<ImportUndo> {
  const total: ImportUndo = { removed: 0, restored: 0, recreated: 0, conflicts: [] };
  for (const operation of [...operations].reverse()) {
    const { data } = await authorized<UndoResponse>(undoPath(operation, dryRun), { method: 'POST' });
    total.removed += data.removed;
    total.restored += data.restored;
    total.recreated += data.recreated;
    total.conflicts.push(...data.conflicts);
  }
  return total;
}

/** Undo of an import from its summary: the dry run when asked for (`previewing`), then the undo itself. */
export function useUndoImport(operations: readonly string[], previewing: boolean, onUndone: () => void) {
  const preview = useQuery({
    queryKey: ['import-undo-preview', ...operations],
    queryFn: () => undoAll(operations, true),
    enabled: previewing,
    staleTime: 0,
  });
  const undo = useMutation({ mutationFn: () => undoAll(operations, false), onSuccess: onUndone });
  return { preview, undo };
}
