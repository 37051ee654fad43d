import { fromErrorInfo, type ApiError } from '../../api/http.js';
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
} from '../protocol.js';

/** A long stage under way: how far, and for the requests which one. */
export interface ImportProgress {
  stage: ImportStage;
  done: number;
  total: number;
  request?: { index: number; count: number };
}

/** What every step after reading keeps: the file, and how its columns map. */
export interface Loaded {
  fileName: string;
  file: FileSummary;
  mapping: ColumnMapping;
  mappingCheck: MappingCheck;
}

/**
 * The import's flow, one kind per step (react-spreadsheet-import's StepState): each step holds what
 * it shows, and nothing that belongs to another.
 */
export type Step =
  | { kind: 'file'; rejection: { fileName: string | null; message: string } | null; error: ApiError | null }
  | { kind: 'reading'; fileName: string; progress: ImportProgress | null }
  | ({ kind: 'mapping'; error: ApiError | null } & Loaded)
  | ({ kind: 'checking'; progress: ImportProgress | null } & Loaded)
  | ({ kind: 'preview'; report: CheckReport; busy: boolean; error: ApiError | null } & Loaded)
  | ({ kind: 'importing'; report: CheckReport; progress: ImportProgress | null; cancelling: boolean } & Loaded)
  | { kind: 'done'; fileName: string; summary: ImportSummary }
  | { kind: 'cancelled'; fileName: string; report: CancelReport };

export type StepKind = Step['kind'];

export interface ImportState {
  step: Step;
  /** The mode and blank-cell rule, kept for the next file of the same dialog. */
  choice: ImportChoice;
  /** The grid's latest window of rows. */
  grid: GridWindow | null;
  /** How many rows a find and replace would change, once the worker has counted. */
  replaceCount: number | null;
}

export const INITIAL: ImportState = {
  step: { kind: 'file', rejection: null, error: null },
  choice: DEFAULT_CHOICE,
  grid: null,
  replaceCount: null,
};

export type PageAction =
  | { type: 'reading'; fileName: string }
  | { type: 'remapped'; mapping: ColumnMapping }
  | { type: 'checking' }
  | { type: 'back-to-mapping' }
  | { type: 'busy' }
  | { type: 'choose'; choice: ImportChoice }
  | { type: 'leaving'; rows: LeaveTarget; leftOut: boolean }
  | { type: 'importing' }
  | { type: 'cancelling' }
  | { type: 'replace-asked' }
  | { type: 'reset' };

const PAGE_ACTIONS = new Set<string>([
  'reading',
  'remapped',
  'checking',
  'back-to-mapping',
  'busy',
  'choose',
  'leaving',
  'importing',
  'cancelling',
  'replace-asked',
  'reset',
]);

export function reduce(state: ImportState, action: PageAction | FromWorker): ImportState {
  if (PAGE_ACTIONS.has(action.type)) return { ...state, ...act(state, action as PageAction) };
  return { ...state, ...receive(state, action as FromWorker) };
}

/** The loaded file of a step that has one. */
export function loadedOf(step: Step): Loaded | null {
  if (step.kind === 'file' || step.kind === 'reading' || step.kind === 'done' || step.kind === 'cancelled') return null;
  const { fileName, file, mapping, mappingCheck } = step;
  return { fileName, file, mapping, mappingCheck };
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

/** The page's own actions. A reducer's switch has one branch per action, hence its complexity. */
// eslint-disable-next-line complexity -- one case per action of a closed union
function act({ step }: ImportState, action: PageAction): Partial<ImportState> {
  const loaded = loadedOf(step);
  switch (action.type) {
    case 'reset':
      return { step: INITIAL.step, grid: null };
    case 'reading':
      return { step: { kind: 'reading', fileName: action.fileName, progress: null }, grid: null };
    case 'remapped':
      return step.kind === 'mapping' ? { step: { ...step, mapping: action.mapping } } : {};
    case 'checking':
      return loaded ? { step: { kind: 'checking', ...loaded, progress: null }, grid: null } : {};
    case 'back-to-mapping':
      return loaded ? { step: { kind: 'mapping', ...loaded, error: null } } : {};
    case 'busy':
      return step.kind === 'preview' ? { step: { ...step, busy: true, error: null } } : {};
    case 'choose':
      return { choice: action.choice, ...(step.kind === 'preview' && { step: { ...step, busy: true, error: null } }) };
    case 'leaving':
      return step.kind === 'preview' ? { step: { ...step, report: leaving(step.report, action) } } : {};
    case 'importing':
      return step.kind === 'preview'
        ? { step: { kind: 'importing', ...loadedOf(step)!, report: step.report, progress: null, cancelling: false } }
        : {};
    case 'cancelling':
      return step.kind === 'importing' ? { step: { ...step, cancelling: true } } : {};
    case 'replace-asked':
      return { replaceCount: null };
  }
}

/** Where a failed stage leaves the user, with the server's words. */
function failed(step: Step, stage: ImportStage, error: ApiError): Step {
  const loaded = loadedOf(step);
  if (step.kind === 'preview' || step.kind === 'importing') {
    return { kind: 'preview', ...loaded!, report: step.report, busy: false, error };
  }
  if (loaded && stage === 'checking') return { kind: 'mapping', ...loaded, error };
  return { kind: 'file', rejection: null, error };
}

/** The worker's messages, one case per message. */
// eslint-disable-next-line complexity -- one case per message of a closed union
function receive(state: ImportState, message: FromWorker): Partial<ImportState> {
  const { step } = state;
  switch (message.type) {
    case 'progress':
      return step.kind === 'reading' || step.kind === 'checking' || step.kind === 'importing'
        ? { step: { ...step, progress: message } }
        : {};
    case 'rejected':
      return {
        step: {
          kind: 'file',
          error: null,
          rejection: { fileName: step.kind === 'reading' ? step.fileName : null, message: message.message },
        },
      };
    case 'read':
      return {
        step: {
          kind: 'mapping',
          fileName: message.file.name,
          file: message.file,
          mapping: message.file.mapping,
          mappingCheck: message.mapping,
          error: null,
        },
      };
    case 'mapped':
      return step.kind === 'mapping' ? { step: { ...step, mappingCheck: message.mapping } } : {};
    case 'checked': {
      const loaded = loadedOf(step);
      if (!loaded || step.kind === 'mapping') return {};
      return { step: { kind: 'preview', ...loaded, report: message.report, busy: false, error: null } };
    }
    case 'imported':
      return step.kind === 'importing'
        ? { step: { kind: 'done', fileName: step.fileName, summary: message.summary } }
        : {};
    case 'cancelled':
      return { step: { kind: 'cancelled', fileName: loadedOf(step)?.fileName ?? '', report: message.report } };
    case 'failed':
      return { step: failed(step, message.stage, fromErrorInfo(message.error)) };
    case 'grid':
      return state.grid && state.grid.id > message.window.id ? {} : { grid: message.window };
    case 'replace-count':
      return { replaceCount: message.count };
    case 'problems-csv':
    case 'need-token':
      return {};
  }
}
