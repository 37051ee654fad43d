import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/**
 * A radio button or a checkbox with its name and a line of help: the name alone is its accessible name
 * and the help its description, so a screen reader says "Admin, radio button" and then the help, not one
 * sentence as the name (the whole label's text would be).
 */
export function Choice({
  input,
  name,
  help,
  helpBelow = false,
}: {
  input: InputHTMLAttributes<HTMLInputElement> & { type: 'radio' | 'checkbox' };
  name: ReactNode;
  help?: ReactNode;
  /** The help on a line of its own, in small type; else after the name. */
  helpBelow?: boolean;
}) {
  const id = useId();
  const helpId = help ? `${id}-help` : undefined;
  return (
    <label className="radio">
      <input {...input} aria-labelledby={`${id}-name`} aria-describedby={helpId} />
      <span>
        <span id={`${id}-name`}>{name}</span>
        {help &&
          (helpBelow ? (
            <small id={helpId} className="muted block">
              {help}
            </small>
          ) : (
            <>
              {' '}
              <span id={helpId} className="muted">
                {help}
              </span>
            </>
          ))}
      </span>
    </label>
  );
}
