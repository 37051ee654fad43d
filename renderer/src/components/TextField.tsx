import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> {
  label: ReactNode;
  value: string;
  onValue(value: string): void;
  /** Shown under the field. */
  hint?: ReactNode;
  /** Replaces the hint and marks the field invalid. */
  error?: ReactNode;
}

/** A labelled text input with its hint or error under it, tied to it for screen readers. */
export function TextField({ label, value, onValue, hint, error, ...input }: TextFieldProps) {
  const noteId = useId();
  const labelId = useId();
  const note = error || hint;
  return (
    <label className="field">
      <span id={labelId}>{label}</span>
      <input
        // Named by its label alone: the hint or error under it, inside the <label>, is its description
        // (found by a walk: a screen reader said "Store code Another location of…", then the words again).
        aria-labelledby={labelId}
        {...input}
        // React's autoFocus runs before a <dialog> opens, when nothing in it can take focus: Dialog
        // focuses what is marked so once it is open (else showModal would start on its ×).
        data-autofocus={input.autoFocus || undefined}
        value={value}
        onChange={(event) => onValue(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={note ? noteId : undefined}
      />
      {note && (
        <small id={noteId} className={error ? 'field-error' : 'muted'}>
          {note}
        </small>
      )}
    </label>
  );
}
