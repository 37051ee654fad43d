import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { RowField } from '../../../server/locations/schemas.js';
import { accessToken } from '../api/session.js';
import type { DuplicateHandling } from '../api/types.js';
import type { TextEncodingName } from './encodings.js';
import type { ColumnOptions } from './columns/column-options.js';
import type { ColumnMapping } from './header-mapping.js';
import {
  DEFAULT_CHOICE,
  type FromWorker,
  type GridFilter,
  type LeaveTarget,
  type ImportChoice,
  type RowSelection,
  type ToWorker,
} from './protocol.js';
import type { Selection } from './steps/preview/selection.js';
import { INITIAL, reduce, type PageAction } from './steps/step.js';
import { lastImportChoice, rememberChoice, rememberedChoice } from './last-choice.js';

const READ_MARK = 'import:read:start';
/** The User Timing measure `npm run bench` reads: file picked -> rows parsed, mapped and checked for names. */
export const READ_MEASURE = 'import: read, parse, map and validate';

/** Hands the rows sent back to the client to the browser as a download. */
function download(csv: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The name of the problems file: the imported file's, marked. */
export function problemsFileName(fileName: string): string {
  return `${fileName.replace(/\.[^.]*$/, '')}-problems.csv`;
}

/** The import worker, driven from the page; `onMessage` must stay the same function (the worker lives as long as it). */
function useImportWorker(onMessage: (message: FromWorker) => void) {
  const worker = useRef<Worker | null>(null);
  useEffect(() => {
    const instance = new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module', name: 'import' });
    worker.current = instance;
    instance.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      if (message.type !== 'need-token') return onMessage(message);
      void accessToken(message.renew).then((token) =>
        instance.postMessage({ type: 'token', token } satisfies ToWorker),
      );
    };
    return () => {
      instance.terminate();
      worker.current = null;
    };
  }, [onMessage]);
  return useCallback((message: ToWorker) => worker.current?.postMessage(message), []);
}

/** The grid's actions: its window of rows, fixes of one row or many, undo, and the rows to send back. */
function useFixes(post: (message: ToWorker) => void, dispatch: (action: PageAction) => void) {
  const fix = useCallback(
    (row: number, field: RowField, value: string) => {
      dispatch({ type: 'busy' });
      // A cell typed in: the worker knows it from a bulk change (an overfull row's problem goes with it alone).
      post({ type: 'fix', row, field, value });
    },
    [post, dispatch],
  );

  const setValues = useCallback(
    (target: RowSelection, field: RowField, value: string) => {
      dispatch({ type: 'busy' });
      post({ type: 'set-values', target, field, value });
    },
    [post, dispatch],
  );

  /** Find and replace: `apply` false only counts the rows it would change. */
  const replace = useCallback(
    (target: RowSelection, field: RowField, find: string, replacement: string, apply: boolean) => {
      dispatch(apply ? { type: 'busy' } : { type: 'replace-asked' });
      post({ type: 'replace', target, field, find, replace: replacement, apply });
    },
    [post, dispatch],
  );

  const undoFix = useCallback(() => {
    dispatch({ type: 'busy' });
    post({ type: 'undo-fix' });
  }, [post, dispatch]);

  const gridId = useRef(0);
  const showRows = useCallback(
    (filter: GridFilter, start: number, end: number, selected: number[]) =>
      post({ type: 'grid', id: ++gridId.current, filter, start, end, selected }),
    [post],
  );

  const downloadProblems = useCallback(() => post({ type: 'problems-csv' }), [post]);
  return { fix, setValues, replace, undoFix, showRows, downloadProblems };
}

/**
 * The column step's actions: the mapping, the address separator and placeholder list, and a saved
 * mapping applied (its id goes with the import, which marks it used).
 */
function useColumnStep(post: (message: ToWorker) => void, dispatch: (action: PageAction) => void) {
  const savedMapping = useRef<string | null>(null);

  /** A whole new mapping, as the column step decided it (a swap changes two columns at once). */
  const setMapping = useCallback(
    (next: ColumnMapping) => {
      dispatch({ type: 'remapped', mapping: next });
      post({ type: 'map', mapping: next });
    },
    [post, dispatch],
  );

  /** A new address separator or placeholder list. */
  const setOptions = useCallback(
    (next: ColumnOptions) => {
      dispatch({ type: 'options', options: next });
      post({ type: 'options', options: next });
    },
    [post, dispatch],
  );

  /** A saved mapping applied (its columns and options), or null: the automatic matching and the defaults. */
  const applyMapping = useCallback(
    (next: ColumnMapping, options: ColumnOptions, saved: string | null) => {
      savedMapping.current = saved;
      setMapping(next);
      setOptions(options);
    },
    [setMapping, setOptions],
  );
  /** The saved mapping applied to the file read, if any. */
  const savedMappingId = useCallback(() => savedMapping.current, []);
  /** A new file: no saved mapping applied yet. */
  const forgetSaved = useCallback(() => {
    savedMapping.current = null;
  }, []);
  return { setMapping, setOptions, applyMapping, savedMappingId, forgetSaved };
}

/**
 * The import's state, its choice the client's last import's (last-choice.ts), which an import that wrote
 * keeps for the next one.
 */
const initialState = (clientId: string) => ({ ...INITIAL, choice: rememberedChoice(clientId) ?? DEFAULT_CHOICE });

/** Whether a choice was made or the rows checked already (`settled`), and the file read is an export coming back. */
interface ChoiceMemory {
  settled: boolean;
  exportBack: boolean;
}

/**
 * The choice an import that wrote is kept with on this computer; and the client's last import's from its
 * history (another computer's, a colleague's), once it answers, whenever that is before the rows are
 * checked or a choice is made (`settled`), which it never overrides. A file read meanwhile that is an
 * export coming back still starts on "update matching" rather than "add new only".
 */
function useChoiceMemory(
  clientId: string,
  { step, choice: chosen }: typeof INITIAL,
  choice: { current: ImportChoice },
  memory: { current: ChoiceMemory },
  dispatch: (action: PageAction) => void,
): void {
  useEffect(() => {
    if (step.kind === 'done' && step.summary.failure === null) rememberChoice(clientId, chosen);
  }, [step, chosen, clientId]);
  useEffect(() => {
    const abort = new AbortController();
    lastImportChoice(clientId, abort.signal).then(
      (last) => {
        if (last === null || memory.current.settled || abort.signal.aborted) return;
        choice.current = memory.current.exportBack && last.mode === 'create' ? { ...last, mode: 'upsert' } : last;
        dispatch({ type: 'choose', choice: choice.current });
      },
      // No history to read (the server away, a role without it): this computer's choice stays.
      () => undefined,
    );
    return () => abort.abort();
  }, [clientId, choice, memory, dispatch]);
}

/**
 * A file with a location id column is an export coming back: updating what it names is the likely wish, so
 * "add new locations only" becomes "update matching locations and add the rest" (the user may change it
 * back; a choice made for an earlier file of the dialog stays).
 */
function readExportBack(
  exportBack: boolean,
  choice: { current: ImportChoice },
  memory: { current: ChoiceMemory },
  dispatch: (action: PageAction) => void,
): void {
  memory.current.exportBack = exportBack;
  if (!exportBack || choice.current.mode !== 'create') return;
  choice.current = { ...choice.current, mode: 'upsert' };
  dispatch({ type: 'choose', choice: choice.current });
}

/** The import, from the page: its step to render and the actions each step offers. */
export function useImport(clientId: string) {
  const [state, dispatch] = useReducer(reduce, clientId, initialState);
  // The choice the worker holds, so a change builds on the latest one even between renders.
  const choice = useRef<ImportChoice>(state.choice);
  const memoryRef = useRef<ChoiceMemory>({ settled: false, exportBack: false });
  useChoiceMemory(clientId, state, choice, memoryRef, dispatch);
  const fileName = useRef('import.csv');
  const onMessage = useCallback((message: FromWorker) => {
    if (message.type === 'read' || message.type === 'rejected') performance.measure(READ_MEASURE, READ_MARK);
    if (message.type === 'read') readExportBack(message.file.mapping.includes('id'), choice, memoryRef, dispatch);
    if (message.type === 'problems-csv') download(message.csv, problemsFileName(fileName.current));
    dispatch(message);
  }, []);
  const post = useImportWorker(onMessage);
  const { setMapping, setOptions, applyMapping, savedMappingId, forgetSaved } = useColumnStep(post, dispatch);

  const read = useCallback(
    (file: File, encoding?: TextEncodingName, sheet?: string) => {
      performance.clearMeasures(READ_MEASURE);
      performance.mark(READ_MARK);
      fileName.current = file.name;
      forgetSaved();
      dispatch({ type: 'reading', fileName: file.name });
      post({ type: 'read', file, encoding, sheet });
    },
    [post, forgetSaved],
  );

  const check = useCallback(() => {
    memoryRef.current.settled = true;
    dispatch({ type: 'checking' });
    post({ type: 'check', clientId, choice: choice.current });
  }, [clientId, post]);

  /** A new mode or blank-cell rule: the dry run runs again over every row while the preview stays. */
  const choose = useCallback(
    (next: ImportChoice) => {
      choice.current = next;
      memoryRef.current.settled = true;
      dispatch({ type: 'choose', choice: next });
      post({ type: 'check', clientId, choice: next });
    },
    [clientId, post],
  );

  const leave = useCallback(
    (rows: LeaveTarget, leftOut: boolean) => {
      dispatch({ type: 'leaving', rows, leftOut });
      post({ type: 'leave-out', rows, leftOut });
    },
    [post],
  );

  const start = useCallback(
    (duplicates: DuplicateHandling) => {
      dispatch({ type: 'importing' });
      post({ type: 'import', clientId, duplicates, choice: choice.current, savedMapping: savedMappingId() });
    },
    [clientId, post, savedMappingId],
  );

  const cancel = useCallback(() => {
    dispatch({ type: 'cancelling' });
    post({ type: 'cancel' });
  }, [post]);

  const select = useCallback((selection: Selection) => dispatch({ type: 'select', selection }), []);
  const reset = useCallback(() => dispatch({ type: 'reset' }), []);
  const backToMapping = useCallback(() => dispatch({ type: 'back-to-mapping' }), []);

  return {
    state,
    read,
    setMapping,
    setOptions,
    applyMapping,
    check,
    choose,
    leave,
    start,
    cancel,
    select,
    reset,
    backToMapping,
    ...useFixes(post, dispatch),
  };
}

export type ImportJobView = ReturnType<typeof useImport>;
