import { useCallback, useState, type ReactNode } from 'react';
import { useMenuCommand } from '../desktop.js';
import { Dialog } from './Dialog.js';
import { lazyPart } from './lazy-part.js';
import { PartBoundary } from './PartBoundary.js';
import { useWindowFileDrop } from './use-window-file-drop.js';

// The import (its steps, the column matching, the fix grid) loads its code when first opened.
const ImportDialog = lazyPart(() => import('./ImportDialog.js').then((module) => module.ImportDialog));

/**
 * An Admin's ways into the import on a client's page: the page's buttons (`open`), a CSV dropped
 * anywhere on the window, and the desktop menu's "Import locations…". `view` is the dialog and the drop overlay.
 */
export function useClientImport({
  clientId,
  clientName,
  enabled,
}: {
  clientId: string;
  clientName: string | undefined;
  enabled: boolean;
}): { open: (file: File | null) => void; view: ReactNode } {
  const [importing, setImporting] = useState<{ file: File | null } | null>(null);
  const [dragging, setDragging] = useState(false);
  const open = useCallback((file: File | null) => setImporting({ file }), []);
  useWindowFileDrop(enabled && importing === null, open, setDragging);
  const openFromMenu = useCallback(() => {
    if (enabled) open(null);
  }, [enabled, open]);
  useMenuCommand('import-csv', openFromMenu);

  const close = () => setImporting(null);
  const view =
    clientName === undefined ? null : (
      <>
        {dragging && (
          <div className="drop-overlay" aria-hidden="true">
            <p>Drop the file (CSV or Excel) to import it into {clientName}</p>
          </div>
        )}
        {importing && (
          <PartBoundary
            what="the import"
            frame={(content) => (
              <Dialog title={`Import locations into ${clientName}`} onClose={close}>
                {content}
              </Dialog>
            )}
          >
            <ImportDialog clientId={clientId} clientName={clientName} initialFile={importing.file} onClose={close} />
          </PartBoundary>
        )}
      </>
    );
  return { open, view };
}
