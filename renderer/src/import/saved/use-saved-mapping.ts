import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { DEFAULT_OPTIONS, optionsOf, savedOptions } from '../columns/column-options.js';
import type { FileSummary } from '../protocol.js';
import { loadedOf, type Loaded } from '../steps/step.js';
import type { ImportJobView } from '../use-import.js';
import { applySaved, columnsOf, fetchMappings, saveMapping, type SavedMapping } from './saved-mappings.js';

export const mappingsKey = (clientId: string) => ['mappings', clientId] as const;

/** What the column step knows of saved mappings for the file it shows. */
export interface SavedState {
  file: FileSummary;
  saved: SavedMapping | null;
  /** Whether the saved mapping is the one in use (the user may go back to the automatic matching). */
  applied: boolean;
}

/**
 * Saved mappings in the import: a file read whose header set has one gets it at once, columns and
 * options; a successful import saves its mapping for the client (over the one it used, or as a new one).
 */
export function useSavedMapping(job: ImportJobView, clientId: string) {
  const cache = useQueryClient();
  const { step } = job.state;
  const [state, setState] = useState<SavedState | null>(null);
  const loaded = useRef<Loaded | null>(null);
  const asked = useRef<FileSummary | null>(null);
  const current = useRef(step);
  const file = step.kind === 'mapping' ? step.file : null;
  const { applyMapping } = job;

  // The latest step, and the last file with its mapping (the done step has none): read by the effects below.
  useEffect(() => {
    current.current = step;
    loaded.current = loadedOf(step) ?? loaded.current;
  }, [step]);

  useEffect(() => {
    // Back from the preview: the same file keeps what was found for it.
    if (!file || asked.current === file) return;
    asked.current = file;
    let live = true;
    fetchMappings(clientId, file.headers)
      .then((found) => {
        const saved = found[0] ?? null;
        const now = current.current;
        // Only over the automatic matching: a choice the user made meanwhile stays.
        const untouched = now.kind === 'mapping' && now.file === file && now.mapping === file.mapping;
        if (!live) return;
        setState({ file, saved, applied: saved !== null && untouched });
        if (saved && untouched) applyMapping(applySaved(file.headers, saved), optionsOf(saved.options), saved.id);
      })
      .catch(() => live && setState({ file, saved: null, applied: false }));
    return () => {
      live = false;
    };
  }, [clientId, file, applyMapping]);

  const done = step.kind === 'done' && step.summary.failure === null ? step : null;
  useEffect(() => {
    const used = loaded.current;
    if (!done || !used) return;
    const existing = state?.file === used.file ? state.saved : null;
    const next = { columns: columnsOf(used.file.headers, used.mapping), options: savedOptions(used.options) };
    // The automatic matching itself, with no option changed, teaches nothing: an export of Agency Desk
    // read back saved a mapping at each import (a walk).
    const automatic = used.mapping.every((field, column) => field === used.file.mapping[column]);
    if (!existing && automatic && Object.keys(next.options).length === 0) return;
    void saveMapping(clientId, used.fileName, next, existing)
      .then(() => cache.invalidateQueries({ queryKey: mappingsKey(clientId) }))
      .catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per finished import
  }, [done]);

  const applied = state && file && state.file === file && state.applied ? state.saved : null;
  const automatic = () => {
    if (!file || !state) return;
    setState({ ...state, applied: false });
    applyMapping(file.mapping, DEFAULT_OPTIONS, null);
  };
  return { applied, automatic };
}
