import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { keys } from '../api/queries.js';
import { announce, hasWork } from '../import/steps/announce.js';
import { StepView } from '../import/steps/StepView.js';
import { useImport } from '../import/use-import.js';
import { SavedMappingNote } from '../import/saved/SavedMappingNote.js';
import { useSavedMapping } from '../import/saved/use-saved-mapping.js';
import { Dialog } from './Dialog.js';
import { ImportSteps } from './ImportSteps.js';
import { LeaveImport } from './LeaveImport.js';

/**
 * A CSV import for one client, in four steps: pick or drop a file, match its columns, review and fix
 * the server's dry run, import (cancellable); it ends on a summary that can undo it. Closing with
 * work in it asks first.
 */
export function ImportDialog({
  clientId,
  clientName,
  initialFile,
  onClose,
}: {
  clientId: string;
  clientName: string;
  initialFile: File | null;
  onClose: () => void;
}) {
  const cache = useQueryClient();
  const job = useImport(clientId);
  const { state, read } = job;
  const saved = useSavedMapping(job, clientId);
  // The file the dialog opened with is read once, whatever the page passes later.
  const [startFile] = useState(initialFile);
  const [pickedFile, setPickedFile] = useState<File | null>(startFile);
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    if (startFile) read(startFile);
  }, [startFile, read]);

  const refresh = () => {
    void cache.invalidateQueries({ queryKey: keys.locations(clientId) });
    void cache.invalidateQueries({ queryKey: keys.clients });
  };
  const { kind } = state.step;
  useEffect(() => {
    if (kind === 'done' || kind === 'cancelled') refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refresh is the same queries each render
  }, [kind]);

  const close = () => (hasWork(state.step) ? setLeaving(true) : onClose());
  return (
    <Dialog title={`Import locations into ${clientName}`} onClose={close} wide className="import-dialog">
      <ImportSteps step={kind} />
      <p className="sr-only" aria-live="polite" data-testid="step-announcement">
        {announce(state.step)}
      </p>
      {leaving ? (
        <LeaveImport
          importing={kind === 'importing'}
          onStay={() => setLeaving(false)}
          onLeave={() => {
            if (kind === 'importing') job.cancel();
            setLeaving(false);
            if (kind !== 'importing') onClose();
          }}
        />
      ) : (
        <StepView
          job={job}
          clientName={clientName}
          pickedFile={pickedFile}
          onFile={(file) => {
            setPickedFile(file);
            read(file);
          }}
          onClose={onClose}
          onUndone={refresh}
          mappingNotice={saved.applied && <SavedMappingNote saved={saved.applied} onAutomatic={saved.automatic} />}
        />
      )}
    </Dialog>
  );
}
