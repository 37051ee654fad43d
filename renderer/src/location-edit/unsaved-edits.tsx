import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { Dialog } from '../components/Dialog.js';
import { blockNavigation } from '../router.js';
import { FormActions } from '../components/FormActions.js';
import { plural } from '../format.js';

/** What the open location's editor holds and has not saved. */
export interface UnsavedEdit {
  name: string;
  changes: number;
}

type Report = (edit: UnsavedEdit | null) => void;

const UnsavedEdits = createContext<Report | null>(null);
export const UnsavedEditsProvider = UnsavedEdits.Provider;

/**
 * The editor says what it holds unsaved (null when nothing), for the panel's guard below; meanwhile a
 * reload or closing the window asks the browser's own question first.
 */
export function useReportUnsaved(edit: UnsavedEdit | null): void {
  const report = useContext(UnsavedEdits);
  const name = edit?.name ?? '';
  const changes = edit?.changes ?? 0;
  useEffect(() => {
    if (changes === 0) return;
    report?.({ name, changes });
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => {
      report?.(null);
      window.removeEventListener('beforeunload', ask);
    };
  }, [report, name, changes]);
}

/**
 * Opening another location, closing the panel, a link of the menu, Back or Forward while the editor holds
 * unsaved changes: the move waits for "Discard changes" (or is dropped by Cancel), instead of losing them
 * without a word.
 */
export function useUnsavedGuard(): {
  report: Report;
  guard: (move: () => void) => void;
  question: React.ReactNode;
} {
  const unsaved = useRef<UnsavedEdit | null>(null);
  const report = useCallback<Report>((edit) => (unsaved.current = edit), []);
  const [pending, setPending] = useState<{ move: () => void; edit: UnsavedEdit } | null>(null);
  const guard = useCallback((move: () => void) => {
    const edit = unsaved.current;
    if (edit === null) move();
    else setPending({ move, edit });
  }, []);
  // Any other move that leaves the open location (a link of the menu, Back, Forward) asks the same.
  useEffect(
    () =>
      blockNavigation({
        holds: (from, to) =>
          unsaved.current !== null &&
          (from.pathname !== to.pathname || from.searchParams.get('location') !== to.searchParams.get('location')),
        ask: guard,
      }),
    [guard],
  );
  const question = pending && (
    <Dialog title={`Discard your changes to ${pending.edit.name}?`} onClose={() => setPending(null)}>
      <div className="form">
        <p>
          The editor holds {plural(pending.edit.changes, 'change')} not saved yet. Discarding{' '}
          {pending.edit.changes === 1 ? 'it' : 'them'} keeps {pending.edit.name} as it is stored.
        </p>
        <FormActions
          action="Discard changes"
          danger
          focusCancel
          onCancel={() => setPending(null)}
          onAction={() => {
            unsaved.current = null;
            setPending(null);
            // Once the question is gone: while a modal dialog is open the page behind it is inert, and the
            // move's focus (the closed panel's row) would be lost to the page's body.
            setTimeout(pending.move);
          }}
        />
      </div>
    </Dialog>
  );
  return { report, guard, question };
}
