import { useState } from 'react';
import { useDeleteLocation, type LocationWhole } from '../api/location-queries.js';
import { Dialog } from '../components/Dialog.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { FormActions } from '../components/FormActions.js';

/** Deleting one location from its panel: the button, then a confirmation that names the location. */
type Step = 'button' | 'confirming';

/**
 * "Delete location…" in an Admin's location panel (DELETE /api/locations/:id). The confirmation names
 * the location and starts on Cancel; the location comes back with Undo in the client's History.
 */
export function DeleteLocation({
  location,
  onDeleted,
}: {
  /** Undefined while its record loads (the button waits for it, as Edit does). */
  location: LocationWhole | undefined;
  /** Called once the server has deleted it: the panel closes and the table lets it go. */
  onDeleted: (locationId: string) => void;
}) {
  const [step, setStep] = useState<Step>('button');
  const remove = useDeleteLocation(location?.client_id, onDeleted);
  const close = () => {
    remove.reset();
    setStep('button');
  };
  return (
    <>
      <button
        type="button"
        className="button button-quiet button-danger-text"
        disabled={!location}
        onClick={() => setStep('confirming')}
      >
        Delete location…
      </button>
      {step === 'confirming' && location && (
        <Dialog title={`Delete ${location.name}?`} onClose={close}>
          <div className="form">
            <p>
              This deletes the location <strong>{location.name}</strong>. It can be brought back with Undo in the
              client’s History.
            </p>
            <ErrorNotice error={remove.error} />
            <FormActions
              action={[`Delete ${location.name}`, 'Deleting…']}
              danger
              focusCancel
              busy={remove.isPending}
              onCancel={close}
              onAction={() => remove.mutate(location.id)}
            />
          </div>
        </Dialog>
      )}
    </>
  );
}
