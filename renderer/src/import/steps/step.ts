import { fromErrorInfo, type ApiError } from '../../api/http.js';
import { DEFAULT_OPTIONS, type ColumnOptions } from '../columns/column-options.js';
import type { ColumnMapping } from '../header-mapping.js';
import {
  DEFAULT_CHOICE,
  type CancelReport,
  type CheckReport,
  type FileSummary,
  type FromWorker,
  type GridWindow,
  type LeaveTarget,
  type ImportChoice,
  type ImportStage,
  type ImportSummary,
  type MappingCheck,
  type SheetChoice,
} from '../protocol.js';
import { NOTHING, keptInView, type Selection } from './preview/selection.js';

/** A long stage under way: how far, and for the requests which one. */
export interface ImportProgress {
  stage: ImportStage;
  done: number;
  total: number;
  request?: { index: number; count: number };
}

/** What every step after reading keeps: the file, how its columns map, and the column step's options. */
export interface Loaded {
  fileName: string;
  file: FileSummary;
  mapping: ColumnMapping;
  mappingCheck: MappingCheck;
  options: ColumnOptions;
}

/**
 * The import's flow, one kind per step (react-spreadsheet-import's StepState): each step holds what
 * it shows, and nothing that belongs to another.
 */
export type Step =
  | { kind: 'file'; rejection: { fileName: string | null; message: string } | null; error: ApiError | null }
  | { kind: 'reading'; fileName: string; progress: ImportProgress | null }
  | { kind: 'sheet'; fileName: string; sheets: SheetChoice[] }
  | ({ kind: 'mapping'; error: ApiError | null } & Loaded)
  | ({ kind: 'checking'; progress: ImportProgress | null } & Loaded)
  | ({ kind: 'preview'; report: CheckReport; busy: boolean; error: ApiError | null } & Loaded)
  | ({ kind: 'importing'; report: CheckReport; progress: ImportProgress | null; cancelling: boolean } & Loaded)
  | { kind: 'done'; fileName: string; summary: ImportSummary; sheet?: string; otherSheets?: SheetChoice[] }
  | { kind: 'cancelled'; fileName: string; report: CancelReport };

export type StepKind = Step['kind'];

export interface ImportState {
  step: Step;
  /** The mode and blank-cell rule, kept for the next file of the same dialog. */
  choice: ImportChoice;
  /** The grid's latest window of rows. */
  grid: GridWindow | null;
  /**
   * The grid's selected rows: changed with its window of rows, so that it never holds a row the grid
   * no longer shows (left out, fixed, filtered away).
   */
  selection: Selection;
  /** How many rows a find and replace would change, once the worker has counted. */
  replaceCount: number | null;
}

export const INITIAL: ImportState = {
  step: { kind: 'file', rejection: null, error: null },
  choice: DEFAULT_CHOICE,
  grid: null,
  selection: NOTHING,
  replaceCount: null,
};

export type PageAction =
  | { type: 'reading'; fileName: string }
  | { type: 'remapped'; mapping: ColumnMapping }
  | { type: 'options'; options: ColumnOptions }
  | { type: 'checking' }
  | { type: 'back-to-mapping' }
  | { type: 'busy' }
  | { type: 'choose'; choice: ImportChoice }
  | { type: 'leaving'; rows: LeaveTarget; leftOut: boolean }
  | { type: 'importing' }
  | { type: 'cancelling' }
  | { type: 'replace-asked' }
  | { type: 'select'; selection: Selection }
  | { type: 'reset' };

const PAGE_ACTIONS = new Set<string>([
  'reading',
  'remapped',
  'options',
  'checking',
  'back-to-mapping',
  'busy',
  'choose',
  'leaving',
  'importing',
  'cancelling',
  'replace-asked',
  'select',
  'reset',
]);

export function reduce(state: ImportState, action: PageAction | FromWorker): ImportState {
  // Each table's handler takes the action of its own type (TypeScript cannot pair a union's key and value).
  if (PAGE_ACTIONS.has(action.type)) {
    const handle = ACTS[action.type as PageAction['type']] as (step: Step, action: PageAction) => Partial<ImportState>;
    return { ...state, ...handle(state.step, action as PageAction) };
  }
  const handle = RECEIVES[action.type as FromWorker['type']] as (
    state: ImportState,
    message: FromWorker,
  ) => Partial<ImportState>;
  return { ...state, ...handle(state, action as FromWorker) };
}

/** The loaded file of a step that has one. */
export function loadedOf(step: Step): Loaded | null {
  if (!('file' in step)) return null;
  const { fileName, file, mapping, mappingCheck, options } = step;
  return { fileName, file, mapping, mappingCheck, options };
}

/** Rows left out at once in the report, before the worker's new counts arrive. */
function leaving(report: CheckReport, action: Extract<PageAction, { type: 'leaving' }>): CheckReport {
  const { rows, leftOut } = action;
  const hit = (row: number, list: 'problems' | 'duplicates') =>
    Array.isArray(rows) ? rows.includes(row) : rows === list;
  return {
    ...report,
    problems: report.problems.map((p) => (hit(p.row, 'problems') ? { ...p, leftOut } : p)),
    skipped: report.skipped.map((d) => (hit(d.row, 'duplicates') ? { ...d, leftOut } : d)),
  };
}

/** The page's own actions, one handler each. */
const ACTS: {
  [K in PageAction['type']]: (step: Step, action: Extract<PageAction, { type: K }>) => Partial<ImportState>;
} = {
  reset: () => ({ step: INITIAL.step, grid: null, selection: NOTHING }),
  reading: (_step, action) => ({
    step: { kind: 'reading', fileName: action.fileName, progress: null },
    grid: null,
    selection: NOTHING,
  }),
  remapped: (step, action) => (step.kind === 'mapping' ? { step: { ...step, mapping: action.mapping } } : {}),
  options: (step, action) => (step.kind === 'mapping' ? { step: { ...step, options: action.options } } : {}),
  checking: (step) => {
    const loaded = loadedOf(step);
    return loaded ? { step: { kind: 'checking', ...loaded, progress: null }, grid: null, selection: NOTHING } : {};
  },
  'back-to-mapping': (step) => {
    const loaded = loadedOf(step);
    return loaded ? { step: { kind: 'mapping', ...loaded, error: null } } : {};
  },
  busy: (step) => (step.kind === 'preview' ? { step: { ...step, busy: true, error: null } } : {}),
  choose: (step, action) => ({
    choice: action.choice,
    ...(step.kind === 'preview' && { step: { ...step, busy: true, error: null } }),
  }),
  leaving: (step, action) =>
    step.kind === 'preview' ? { step: { ...step, report: leaving(step.report, action) } } : {},
  importing: (step) => {
    const loaded = loadedOf(step);
    if (step.kind !== 'preview' || !loaded) return {};
    return { step: { kind: 'importing', ...loaded, report: step.report, progress: null, cancelling: false } };
  },
  cancelling: (step) => (step.kind === 'importing' ? { step: { ...step, cancelling: true } } : {}),
  'replace-asked': () => ({ replaceCount: null }),
  select: (_step, action) => ({ selection: action.selection }),
};

/** Where a failed stage leaves the user, with the server's words. */
function failed(step: Step, stage: ImportStage, error: ApiError): Step {
  const loaded = loadedOf(step);
  if (step.kind === 'preview' || step.kind === 'importing') {
    return { kind: 'preview', ...loaded!, report: step.report, busy: false, error };
  }
  if (loaded && stage === 'checking') return { kind: 'mapping', ...loaded, error };
  return { kind: 'file', rejection: null, error };
}

/** The worker's messages, one handler each. */
const RECEIVES: {
  [K in FromWorker['type']]: (state: ImportState, message: Extract<FromWorker, { type: K }>) => Partial<ImportState>;
} = {
  progress: ({ step }, message) =>
    step.kind === 'reading' || step.kind === 'checking' || step.kind === 'importing'
      ? { step: { ...step, progress: message } }
      : {},
  rejected: ({ step }, message) => ({
    step: {
      kind: 'file',
      error: null,
      rejection: { fileName: step.kind === 'reading' ? step.fileName : null, message: message.message },
    },
  }),
  read: (_state, { file, mapping }) => ({
    step: {
      kind: 'mapping',
      fileName: file.name,
      file,
      mapping: file.mapping,
      mappingCheck: mapping,
      options: DEFAULT_OPTIONS,
      error: null,
    },
  }),
  sheets: ({ step }, message) =>
    step.kind === 'reading' ? { step: { kind: 'sheet', fileName: step.fileName, sheets: message.sheets } } : {},
  mapped: ({ step }, message) => (step.kind === 'mapping' ? { step: { ...step, mappingCheck: message.mapping } } : {}),
  checked: ({ step }, message) => {
    const loaded = loadedOf(step);
    if (!loaded || step.kind === 'mapping') return {};
    return { step: { kind: 'preview', ...loaded, report: message.report, busy: false, error: null } };
  },
  imported: ({ step }, message) =>
    step.kind === 'importing'
      ? {
          step: {
            kind: 'done',
            fileName: step.fileName,
            summary: message.summary,
            sheet: step.file.sheet,
            otherSheets: step.file.otherSheets,
          },
        }
      : {},
  cancelled: ({ step }, message) => ({
    step: { kind: 'cancelled', fileName: loadedOf(step)?.fileName ?? '', report: message.report },
  }),
  failed: ({ step }, message) => ({ step: failed(step, message.stage, fromErrorInfo(message.error)) }),
  grid: (state, { window }) =>
    state.grid && state.grid.id > window.id
      ? {}
      : { grid: window, selection: keptInView(state.selection, window.hidden, window.total) },
  'replace-count': (_state, message) => ({ replaceCount: message.count }),
  'problems-csv': () => ({}),
  'need-token': () => ({}),
};
