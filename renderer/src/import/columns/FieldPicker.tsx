import { useRef, useState, type KeyboardEvent } from 'react';
import { FIELD_LABELS, TARGETS, type ColumnTarget } from '../header-mapping.js';

const CHOICES: ColumnTarget[] = [null, ...TARGETS];

export function targetLabel(target: ColumnTarget): string {
  return target === null ? 'Don’t import' : FIELD_LABELS[target];
}

/** The listbox's keys: where the highlight goes; `null` for a key that does not move it. */
function moved(key: string, active: number): number | null {
  const last = CHOICES.length - 1;
  if (key === 'ArrowDown') return Math.min(active + 1, last);
  if (key === 'ArrowUp') return Math.max(active - 1, 0);
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  if (key === 'PageDown') return Math.min(active + 8, last);
  if (key === 'PageUp') return Math.max(active - 8, 0);
  return null;
}

/** The open list of fields: the highlight moves with the arrow keys; Enter or a click commits it. */
function FieldList({
  id,
  labelledBy,
  value,
  active,
  upward,
  onMove,
  onCommit,
  onClose,
}: {
  id: string;
  labelledBy: string;
  value: ColumnTarget;
  active: number;
  upward: boolean;
  onMove: (index: number) => void;
  onCommit: (index: number) => void;
  onClose: (refocus: boolean) => void;
}) {
  const optionId = (index: number) => `${id}-option-${index}`;
  const onKey = (event: KeyboardEvent) => {
    const next = moved(event.key, active);
    if (next !== null) {
      event.preventDefault();
      onMove(next);
      document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' });
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onCommit(active);
    } else if (event.key === 'Escape') {
      // The dialog would close on Escape: the list closes first, and the choice stays as it was.
      event.preventDefault();
      event.stopPropagation();
      onClose(true);
    } else if (event.key === 'Tab') onClose(false);
  };
  return (
    <ul
      id={`${id}-list`}
      role="listbox"
      tabIndex={0}
      aria-labelledby={labelledBy}
      aria-activedescendant={optionId(active)}
      className={upward ? 'field-picker-list field-picker-list-up' : 'field-picker-list'}
      ref={(list) => list?.focus({ preventScroll: true })}
      onKeyDown={onKey}
      onBlur={() => onClose(false)}
    >
      {CHOICES.map((target, index) => (
        <li
          key={target ?? ''}
          id={optionId(index)}
          role="option"
          aria-selected={target === value}
          className={index === active ? 'active' : undefined}
          // Keeps the focus in the list, so the click below lands before the list's blur closes it.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onCommit(index)}
        >
          {targetLabel(target)}
        </li>
      ))}
    </ul>
  );
}

/**
 * "Import as" for one column: a button that opens a list of the fields. Arrow keys only move the
 * highlight inside the open list; the mapping changes on Enter or a click, never by passing over an
 * option (a closed native select in Chromium changes its value on each arrow key).
 */
export function FieldPicker({
  id,
  labelledBy,
  value,
  onCommit,
}: {
  id: string;
  /** The id of the column's header, which names the button with its value. */
  labelledBy: string;
  value: ColumnTarget;
  onCommit: (target: ColumnTarget) => void;
}) {
  const [active, setActive] = useState<number | null>(null);
  const [upward, setUpward] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const open = active !== null;

  const show = () => {
    // The list opens upward when the dialog has no room for it below the button (the list is 16rem high).
    const rect = button.current?.getBoundingClientRect();
    const bottom = button.current?.closest('[role="dialog"]')?.getBoundingClientRect().bottom ?? window.innerHeight;
    setUpward(rect !== undefined && bottom - rect.bottom < 16 * 16 && rect.top > bottom - rect.bottom);
    setActive(Math.max(CHOICES.indexOf(value), 0));
  };
  const close = (refocus: boolean) => {
    setActive(null);
    if (refocus) button.current?.focus();
  };
  const commit = (index: number) => {
    close(true);
    const target = CHOICES[index];
    if (target !== undefined && target !== value) onCommit(target);
  };
  const onButtonKey = (event: KeyboardEvent) => {
    if (['ArrowDown', 'ArrowUp', 'Enter', ' '].includes(event.key)) {
      event.preventDefault();
      show();
    }
  };

  return (
    <div className="field-picker">
      <button
        ref={button}
        type="button"
        id={id}
        className="field-picker-button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? `${id}-list` : undefined}
        aria-labelledby={`${labelledBy} ${id}`}
        onClick={() => (open ? close(true) : show())}
        onKeyDown={onButtonKey}
      >
        {targetLabel(value)}
      </button>
      {open && (
        <FieldList
          id={id}
          labelledBy={labelledBy}
          value={value}
          active={active}
          upward={upward}
          onMove={setActive}
          onCommit={commit}
          onClose={close}
        />
      )}
    </div>
  );
}
