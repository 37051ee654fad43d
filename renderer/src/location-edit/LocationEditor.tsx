import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../api/http.js';
import { useUpdateLocation, type LocationWhole } from '../api/location-queries.js';
import { TextField } from '../components/TextField.js';
import { changeOf, draftOf, EDITABLE, HINTS, type Draft, type EditableField } from './draft.js';
import { StatusOptions } from './StatusOptions.js';
import { useReportUnsaved } from './unsaved-edits.js';
import { usePhoneText } from '../phone-text.js';
import { extensionWords, refusalsOf, useFieldCheck, type FieldErrors } from './use-field-check.js';

/**
 * A location's fields as a form (Admin). Only what the person changed is sent; the server checks each
 * field by the import's rules and its words show under the field. Saving recomputes the health.
 */
export function LocationEditor({
  location,
  onDone,
}: {
  location: LocationWhole;
  /** Closed: by Cancel, or by a save, with what the server took but did not keep (a phone's extension). */
  onDone: (unkept?: string) => void;
}) {
  const phoneText = usePhoneText();
  // The values it opened with, kept: the phone reads as the panel shows it ("+1 217 555 0142"), and
  // the phone library loading meanwhile must not turn into a change.
  const [initial] = useState(() => draftOf(location, phoneText));
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  // What the server takes but cannot keep whole, said under the field (a phone's extension).
  const [notes, setNotes] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<string | null>(null);
  const update = useUpdateLocation(location.id);
  // A refused save takes the focus to the first field the server named: it may be far down the
  // panel, out of view, and the button alone says nothing.
  const form = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    const refused = refusals > 0 ? form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') : null;
    refused?.focus();
    // The server's words can take three lines under the field: show them whole too.
    refused?.closest('.field')?.scrollIntoView({ block: 'nearest' });
  }, [refusals]);
  const change = changeOf(draft, initial);
  const changed = Object.keys(change).length;
  const fieldCheck = useFieldCheck(location.id, setErrors, setNotes);
  useReportUnsaved(changed > 0 ? { name: location.name, changes: changed } : null);

  const set = (field: EditableField) => (value: string) => {
    fieldCheck.typed(field);
    setDraft((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setNotes((current) => ({ ...current, [field]: undefined }));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    const run = fieldCheck.began();
    try {
      const saved = await update.mutateAsync(change);
      onDone(saved.phone_extension === undefined ? undefined : extensionWords(saved.phone_extension));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const byField = refusalsOf(error);
      const fields = Object.keys(draft) as EditableField[];
      setErrors(fieldCheck.since(run, byField, fields));
      if (!fieldCheck.typedSince(run)) setRefusals((count) => count + 1);
      // Words of no field of the form (the body as a whole) are the server's message, said over the buttons.
      setNotice(fields.some((field) => byField[field] !== undefined) ? null : error.message);
    }
  }

  return (
    <form ref={form} className="location-editor" onSubmit={save} aria-label={`Edit ${location.name}`} noValidate>
      {EDITABLE.map(([field, label]) => (
        <TextField
          key={field}
          label={label}
          value={draft[field]}
          onValue={set(field)}
          // Checked as the person leaves a field they changed, as saving would check it.
          onBlur={() => draft[field] !== initial[field] && void fieldCheck.check(field, change)}
          hint={notes[field] ?? HINTS[field]}
          error={errors[field]}
          required={field === 'name'}
          autoFocus={field === 'name'}
        />
      ))}
      <label className="field">
        <span>Status</span>
        <select value={draft.status} onChange={(event) => set('status')(event.target.value)}>
          <StatusOptions />
        </select>
      </label>
      {/* Said while a field the server refused is not changed yet: gone once each one is. */}
      {(notice ?? Object.values(errors).some(Boolean)) && (
        <p className="field-error" role="alert">
          {notice ?? 'Some fields need a fix before saving.'}
        </p>
      )}
      <EditorActions changed={changed} saving={update.isPending} onCancel={() => onDone()} />
    </form>
  );
}

/** Cancel, and Save counting the fields changed. */
function EditorActions({ changed, saving, onCancel }: { changed: number; saving: boolean; onCancel: () => void }) {
  return (
    <div className="form-actions">
      <button type="button" className="button button-quiet" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="button button-primary" disabled={changed === 0 || saving}>
        {saving ? 'Saving…' : changed === 0 ? 'Save' : `Save ${changed} change${changed === 1 ? '' : 's'}`}
      </button>
    </div>
  );
}
