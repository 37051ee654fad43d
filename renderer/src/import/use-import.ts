import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { RowField } from '../../../server/locations/schemas.js';
import { fromErrorInfo, type ApiError } from '../api/http.js';
import { accessToken } from '../api/session.js';
import type { DuplicateHandling } from '../api/types.js';
import type { TextEncodingName } from './encodings.js';
import type { ColumnMapping } from './header-mapping.js';
import {
  DEFAULT_CHOICE,
  type CheckReport,
  type FileSummary,
  type ImportChoice,
  type FromWorker,
  type ImportStage,
  type ImportSummary,
  type MappingCheck,
  type SheetChoice,
  type ToWorker,
} from './protocol.js';

export type ImportStep = 'choose' | 'reading' | 'sheet' | 'mapping' | 'checking' | 'preview' | 'importing' | 'done';

export interface ImportProgress {
  stage: ImportStage;
  done: number;
  total: number;
  request?: { index: number; count: number };
}

export interface ImportState {
  step: ImportStep;
  fileName: string | null;
  file: FileSummary | null;
  /** A workbook's sheets with rows, when the user has to choose one. */
  sheets: SheetChoice[] | null;
  mapping: ColumnMapping;
  mappingCheck: MappingCheck | null;
  report: CheckReport | null;
  progress: ImportProgress | null;
  summary: ImportSummary | null;
  /** Why the file was not accepted; nothing was sent. */
  rejection: string | null;
  error: ApiError | null;
  /** A row being checked again after the user fixed a cell, or every row after a new choice. */
  busy: boolean;
  /** The mode and blank-cell rule of the preview, sent with the dry run and the import. */
  choice: ImportChoice;
}

const INITIAL: ImportState = {
  step: 'choose',
  fileName: null,
  file: null,
  sheets: null,
  mapping: [],
  mappingCheck: null,
  report: null,
  progress: null,
  summary: null,
  rejection: null,
  error: null,
  busy: false,
  choice: DEFAULT_CHOICE,
};

type Action =
  | { type: 'reading'; fileName: string }
  | { type: 'remapped'; mapping: ColumnMapping }
  | { type: 'step'; step: ImportStep }
  | { type: 'busy' }
  | { type: 'choose'; choice: ImportChoice }
  | { type: 'leaving'; rows: number[] | 'problems' | 'duplicates'; leftOut: boolean }
  | { type: 'reset' }
  | FromWorker;

function reduce(state: ImportState, action: Action): ImportState {
  return isFromWorker(action) ? receive(state, action) : act(state, action);
}

const WORKER_MESSAGES = new Set<string>([
  'progress',
  'rejected',
  'read',
  'sheets',
  'mapped',
  'checked',
  'imported',
  'failed',
  'need-token',
]);
function isFromWorker(action: Action): action is FromWorker {
  return WORKER_MESSAGES.has(action.type);
}

/** The page's own actions. */
function act(state: ImportState, action: Exclude<Action, FromWorker>): ImportState {
  switch (action.type) {
    // The mode chosen stays for the next file of the same dialog.
    case 'reset':
      return { ...INITIAL, choice: state.choice };
    case 'reading':
      return { ...INITIAL, choice: state.choice, step: 'reading', fileName: action.fileName };
    case 'remapped':
      return { ...state, mapping: action.mapping, report: null };
    case 'step':
      return { ...state, step: action.step, error: null, progress: null };
    case 'busy':
      return { ...state, busy: true, error: null };
    case 'choose':
      return { ...state, choice: action.choice, busy: true, error: null };
    case 'leaving': {
      // The checkbox answers at once; the worker's report brings the counts a moment later.
      if (!state.report) return state;
      const { rows, leftOut } = action;
      const hit = (row: number, list: 'problems' | 'duplicates') =>
        Array.isArray(rows) ? rows.includes(row) : rows === list;
      return {
        ...state,
        report: {
          ...state.report,
          problems: state.report.problems.map((p) => (hit(p.row, 'problems') ? { ...p, leftOut } : p)),
          skipped: state.report.skipped.map((d) => (hit(d.row, 'duplicates') ? { ...d, leftOut } : d)),
        },
      };
    }
  }
}

/** Where the step goes back to when a stage fails. */
function stepAfterFailure(state: ImportState, stage: ImportStage): ImportStep {
  if (stage === 'checking') return state.report ? 'preview' : 'mapping';
  return stage === 'importing' ? 'preview' : 'choose';
}

/** The worker's messages. */
function receive(state: ImportState, action: FromWorker): ImportState {
  switch (action.type) {
    case 'progress':
      return { ...state, progress: action };
    case 'rejected':
      return { ...INITIAL, choice: state.choice, rejection: action.message, fileName: state.fileName };
    case 'read':
      return {
        ...state,
        step: 'mapping',
        file: action.file,
        mapping: action.file.mapping,
        mappingCheck: action.mapping,
        progress: null,
      };
    case 'sheets':
      return { ...state, step: 'sheet', sheets: action.sheets, progress: null };
    case 'mapped':
      return { ...state, mappingCheck: action.mapping };
    case 'checked':
      return {
        ...state,
        step: state.step === 'importing' || state.step === 'checking' ? 'preview' : state.step,
        report: action.report,
        busy: false,
        progress: null,
      };
    case 'imported':
      return { ...state, step: 'done', summary: action.summary, progress: null };
    case 'failed':
      return {
        ...state,
        step: stepAfterFailure(state, action.stage),
        error: fromErrorInfo(action.error),
        busy: false,
        progress: null,
      };
    case 'need-token':
      return state;
  }
}

const READ_MARK = 'import:read:start';
/** The User Timing measure `npm run bench` reads: file picked -> rows parsed, mapped and checked for names. */
export const READ_MEASURE = 'import: read, parse, map and validate';

/** The import worker, driven from the page: the state to render and the actions the dialog offers. */
export function useImport(clientId: string) {
  const [state, dispatch] = useReducer(reduce, INITIAL);
  const worker = useRef<Worker | null>(null);
  // The mapping the worker holds, so a change builds on the latest one even between renders.
  const mapping = useRef<ColumnMapping>([]);

  const post = useCallback((message: ToWorker) => worker.current?.postMessage(message), []);

  useEffect(() => {
    const instance = new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module', name: 'import' });
    worker.current = instance;
    instance.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      if (message.type === 'need-token') {
        void accessToken(message.renew).then((token) =>
          instance.postMessage({ type: 'token', token } satisfies ToWorker),
        );
        return;
      }
      if (message.type === 'read' || message.type === 'rejected') performance.measure(READ_MEASURE, READ_MARK);
      if (message.type === 'read') mapping.current = message.file.mapping;
      dispatch(message);
    };
    return () => {
      instance.terminate();
      worker.current = null;
    };
  }, []);

  const read = useCallback(
    (file: File, encoding?: TextEncodingName, sheet?: string) => {
      performance.clearMeasures(READ_MEASURE);
      performance.mark(READ_MARK);
      dispatch({ type: 'reading', fileName: file.name });
      post({ type: 'read', file, encoding, sheet });
    },
    [post],
  );

  /** A whole new mapping, as the column step decided it (a swap changes two columns at once). */
  const setMapping = useCallback(
    (next: ColumnMapping) => {
      mapping.current = next;
      dispatch({ type: 'remapped', mapping: next });
      post({ type: 'map', mapping: next });
    },
    [post],
  );

  // The choice the worker holds, so a check and the import use the latest one even between renders.
  const choice = useRef<ImportChoice>(DEFAULT_CHOICE);

  const check = useCallback(() => {
    dispatch({ type: 'step', step: 'checking' });
    post({ type: 'check', clientId, choice: choice.current });
  }, [clientId, post]);

  /** A new mode or blank-cell rule: the dry run runs again over every row while the preview stays. */
  const choose = useCallback(
    (next: ImportChoice) => {
      choice.current = next;
      dispatch({ type: 'choose', choice: next });
      post({ type: 'check', clientId, choice: next });
    },
    [clientId, post],
  );

  const fix = useCallback(
    (row: number, field: RowField, value: string) => {
      dispatch({ type: 'busy' });
      post({ type: 'fix', row, field, value });
    },
    [post],
  );

  const leave = useCallback(
    (rows: number[] | 'problems' | 'duplicates', leftOut: boolean) => {
      dispatch({ type: 'leaving', rows, leftOut });
      post({ type: 'leave-out', rows, leftOut });
    },
    [post],
  );

  const start = useCallback(
    (duplicates: DuplicateHandling) => {
      dispatch({ type: 'step', step: 'importing' });
      post({ type: 'import', clientId, duplicates, choice: choice.current });
    },
    [clientId, post],
  );

  const reset = useCallback(() => dispatch({ type: 'reset' }), []);
  const backToMapping = useCallback(() => dispatch({ type: 'step', step: 'mapping' }), []);

  return { state, read, setMapping, check, choose, fix, leave, start, reset, backToMapping };
}
