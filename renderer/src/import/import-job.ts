import {
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  type Changes,
  type RowAction,
  type RowField,
  UploadQuery,
} from '../../../server/locations/schemas.js';
import { withoutControlCharacters } from '../../../server/http/control-characters.js';
import { HEADER_SEARCH_ROWS, rowsUnderHeader } from '../../../server/imports/header-row.js';
import { NEEDS_A_COUNTRY } from '../../../server/locations/field-words.js';
import { sheetsToRead } from '../../../server/imports/sheet-choice.js';
import { ApiError, toErrorInfo, type ApiErrorInfo } from '../api/http.js';
import type { DryRun, DryRunRow, DuplicateHandling, Health, Imported } from '../api/types.js';
import { decodeInto, type ByteSource, type TextEncodingName } from './decode.js';
import {
  FIELDS,
  ROW_FIELD_LABELS,
  fieldOfTarget,
  mapHeaders,
  nameColumnOf,
  type ColumnMapping,
} from './header-mapping.js';
import { reasonsOf, replaced, returnedRowsCsv, searchableText, shows } from './bulk-fixes.js';
import { BLANK_LINES_KEPT, CsvParser, rowCountOf, valuesOf, type CsvTable } from './parse-csv.js';
import { rowsWithLostLetters } from './lost-letters.js';
import {
  DEFAULT_CHOICE,
  MAX_LISTED,
  UNCHANGED_LISTED,
  type CancelReport,
  type CheckReport,
  type FileSummary,
  type FromWorker,
  type GridFilter,
  type GridRow,
  type LeaveTarget,
  type RowSelection,
  type ImportChoice,
  type ImportStage,
  type ImportSummary,
  type ListedRow,
  type MappingCheck,
  type ProblemRow,
  type SampleRow,
  type SkippedRow,
  type Totals,
} from './protocol.js';
import type { UndoResponse } from '../../../server/audit/schemas.js';
import { lookOfValues, type LookableField } from '../../../server/imports/look.js';
import { weekWords } from '../hours-words.js';
import { JUNK_LABELS, junkRows, LOCKED, namelessRows, sampleRows, type FlagReason } from './junk-flags.js';
import { partnerRows } from './partner-rows.js';
import { DEFAULT_OPTIONS, type ColumnOptions } from './columns/column-options.js';
import { isWorkbook, readWorkbook, sheetTable } from './read-xlsx.js';
import { planRequests, rowValueText, uploadBody, uploadRowOf, type RowEdits } from './upload-rows.js';

/** What the job needs from outside: a way to talk to the page, a token, and an upload channel. */
export interface JobPorts {
  send(message: FromWorker): void;
  token(renew: boolean): Promise<string | null>;
  post<T>(
    path: string,
    body: string,
    token: string,
    onProgress: (sent: number, total: number) => void,
    signal?: AbortSignal,
  ): Promise<T>;
}

/** The import request on the wire: how much of its body has gone, and how to stop it. */
interface InFlight {
  sent: number;
  size: number;
  abort: AbortController;
}

// A little under the server's limit, so the request line and headers never tip a body over it.
const LIMITS = { rows: MAX_IMPORT_ROWS, bytes: MAX_IMPORT_BYTES - 64 * 1024 };
const SAMPLE_ROWS = 20;
const MAX_FILE_NAME = UploadQuery.properties.fileName.maxLength as number;
const HEALTH_CODES: Health[] = ['green', 'yellow', 'red', 'closed'];
const ACTIONS: RowAction[] = ['created', 'updated', 'unchanged', 'skipped', 'error'];

interface DuplicateMark {
  reason: NonNullable<DryRunRow['duplicate_of']>['reason'];
  ofRow: number | null;
}

/**
 * The query of a dry run or an import: the mode and blank-cell rule the user chose. The rows come with
 * their placeholders blanked by the column step's list: the server reads none (a word kept stays).
 */
export function uploadQuery(choice: ImportChoice, extra: Record<string, string>): string {
  const query = { ...extra, mode: choice.mode, blanks: choice.blanks, placeholders: 'none' };
  return `/api/locations/upload?${new URLSearchParams(query)}`;
}

// The lines of rows with a lost letter that the notice names.
const LOST_LETTER_LINES = 10;

// Enough rows to tell what a column holds, few enough to cost nothing on a big file.
const LOOK_ROWS = 200;

/** Per column, the field its first values look like (server/imports/look.ts), shown when the column is left out. */
function looksOf(table: CsvTable, rowCount: number): (LookableField | null)[] {
  const rows = Array.from({ length: Math.min(rowCount, LOOK_ROWS) }, (_, row) => valuesOf(table, row));
  return table.headers.map((_, column) => lookOfValues(rows.map((values) => values[column] ?? ''))?.field ?? null);
}

/** The counts of an import so far, summed over its requests' answers. */
interface Written {
  imported: number;
  updated: number;
  unchanged: number;
  skipped: number;
  /** Rows whose phone's extension the stored number could not keep (the answers' phone_extensions). */
  extensions: number;
  sent: number;
  operations: string[];
}

/**
 * One CSV import, from the dropped file to the summary. It lives in the worker and keeps the rows
 * there: the page only ever receives summaries and the rows that need the user's attention.
 */
export class ImportJob {
  private table: CsvTable | null = null;
  /** The file's name, which the import sends for the history ("imported boston-2026.csv: 180 created"). */
  private fileName: string | null = null;
  private mapping: ColumnMapping = [];
  /** The address separator and placeholder list of the column step. */
  private options: ColumnOptions = DEFAULT_OPTIONS;
  private clientId: string | null = null;
  private readonly edits = new Map<number, RowEdits>();
  private readonly leftOut = new Set<number>();
  /** Overfull rows whose problem's cell was typed in (fix()), with the value: while it stands, the problem is gone. */
  private readonly typedOverfull = new Map<number, string>();
  /**
   * Rows the server's junk-row rule flags under the current mapping: they start left out. Found at the
   * first check of a mapping (null until then), not at the read: the rule needs the final mapping, and a
   * 100,000-row file costs it about a second that the column step need not wait for.
   */
  private junk: Map<number, FlagReason> | null = null;
  private readonly errors = new Map<number, ProblemRow['errors']>();
  private readonly duplicates = new Map<number, DuplicateMark>();
  private readonly skipReasons = new Map<number, string>();
  /** Rows the server noted (a location id that is not the client's). */
  private readonly notes = new Set<number>();
  /** Rows whose phone carried an extension the stored number does not keep (the server's phone_extension). */
  private readonly extensions = new Set<number>();
  private readonly phonesWithoutCountry = new Set<number>();
  private readonly skippedChanges = new Set<number>();
  /** Rows whose store code is the stored one but for the leading zeros Excel drops (store_code_given). */
  private readonly codesWithoutZeros = new Set<number>();
  /** Each checked row's hours as the server read them, in the dashboard's words (weekWords): the grid shows them. */
  private readonly hoursRead = new Map<number, string>();
  /** Rows whose key matched nothing while their place id or name and address are a stored location's. */
  private readonly samePlace = new Set<number>();
  /** Rows to create with no store code, place id or address: each import adds them again (the server's no_key). */
  private readonly noKey = new Set<number>();
  /** Updates that give a location another stored location's place id (the server's place_id_of). */
  private readonly placeIdsTaken = new Set<number>();
  /** Unmatched rows whose store code a stored location has in other capitals (store_code_case_of). */
  private readonly codesInOtherCase = new Set<number>();
  /** Updates to locations changed after the row's export was made (the server's changed_since). */
  private readonly changedSince = new Set<number>();
  private readonly changes = new Map<number, Changes>();
  /** Per row: 0 not checked or invalid, else 1 + index in HEALTH_CODES. */
  private health = new Uint8Array(0);
  /** Per row: 0 not checked, else 1 + index in ACTIONS (the server's answer). */
  private actions = new Uint8Array(0);
  private samples: SampleRow[] = [];
  private choice: ImportChoice = DEFAULT_CHOICE;
  /** Each bulk fix's rows with their edits before it, newest last: "Undo" puts the last one back. */
  private readonly fixHistory: Map<number, RowEdits | undefined>[] = [];
  /** The rows the last filter shows, and how many of them are left out, kept until a row changes. */
  private filtered: { key: string; rows: number[]; leftOut: number } | null = null;
  /** Per row, its values as the text filter reads them (bulk-fixes.ts), kept until the row changes. */
  private searchable: (string | undefined)[] = [];
  private inFlight: InFlight | null = null;
  private cancelled = false;

  constructor(private readonly ports: JobPorts) {}

  /**
   * Decodes, parses and maps a file; answers `read` with what the mapping screen needs, or `rejected`.
   * A workbook is read by read-xlsx.ts; with several sheets and none chosen it answers `sheets`.
   */
  async read(file: ByteSource & { name: string }, encoding?: TextEncodingName, sheet?: string): Promise<void> {
    // A previous file's rows go first, so two files never sit in the worker's memory at once.
    this.table = null;
    this.resetChecks();
    if (await isWorkbook(file)) return this.readWorkbook(file, sheet);
    let parser = new CsvParser();
    const decoded = await decodeInto(file, () => (parser = new CsvParser()), {
      // The last bytes are followed at once by the mapping screen: no 100% for the page to draw first.
      onProgress: (bytes) => {
        if (bytes < file.size) this.progress('parsing', bytes, file.size);
      },
      forced: encoding,
    });
    if (!decoded.ok) return this.ports.send({ type: 'rejected', message: decoded.message });
    this.accept(parser.end(), { name: file.name, size: file.size, encoding: decoded.encoding });
  }

  /** An .xlsx file: the sheet chosen, the only sheet with rows, or a question which one. */
  private async readWorkbook(file: ByteSource & { name: string }, chosen?: string): Promise<void> {
    const workbook = await readWorkbook(file);
    if (!workbook.ok) return this.ports.send({ type: 'rejected', message: workbook.message });
    // A hidden sheet (a stale copy kept in the workbook) only when no shown sheet has rows; a table of
    // locations before a page of instructions (sheet-choice.ts, the server's rule).
    const looks = workbook.sheets.map((sheet) => ({
      ...sheet,
      hidden: sheet.hidden ?? false,
      filled: sheet.rows.length > 0,
      top: sheet.rows.slice(0, HEADER_SEARCH_ROWS),
    }));
    const filled = sheetsToRead(looks);
    const sheet = filled.find((candidate) => candidate.name === chosen) ?? (filled.length === 1 ? filled[0] : null);
    if (!sheet) {
      if (filled.length === 0)
        return this.accept(sheetTable({ name: '', rows: [], lines: [] }), {
          name: file.name,
          size: file.size,
          encoding: 'utf-8',
        });
      const sheets = filled.map(({ name, rows, top }) => ({ name, rowCount: rowsUnderHeader(rows.length, top) }));
      return this.ports.send({ type: 'sheets', sheets });
    }
    // The other tables of locations, named again when the import ends (found by a walk: a sheet a country,
    // the one not chosen was forgotten).
    const otherSheets = filled
      .filter((other) => other !== sheet)
      .map(({ name, rows, top }) => ({ name, rowCount: rowsUnderHeader(rows.length, top) }));
    // Sheets with values the rule passed over (instructions, a hidden copy): the column step names them.
    const passedOver = looks
      .filter((look) => look.filled && !filled.includes(look))
      .map(({ name, hidden }) => ({ name, hidden }));
    this.accept(sheetTable(sheet), {
      name: file.name,
      size: file.size,
      encoding: 'utf-8',
      sheet: sheet.name,
      ...(otherSheets.length > 0 && { otherSheets }),
      ...(passedOver.length > 0 && { passedOver }),
      ...(workbook.tooFar && { farSheets: workbook.tooFar }),
    });
  }

  /** A parsed table: refused when it has no header or no rows, else mapped and described to the page. */
  private accept(
    table: CsvTable,
    facts: Pick<FileSummary, 'name' | 'size' | 'encoding' | 'sheet' | 'otherSheets' | 'passedOver' | 'farSheets'>,
  ): void {
    if (table.headers.length === 0) {
      return this.ports.send({
        type: 'rejected',
        message: 'This file is empty: it has no header row and no locations.',
      });
    }
    const rowCount = rowCountOf(table);
    if (rowCount === 0) {
      return this.ports.send({
        type: 'rejected',
        message: 'This file has a header row but no locations under it. Add one row per location and try again.',
      });
    }
    this.table = table;
    this.fileName = facts.name;
    this.mapping = mapHeaders(table.headers, new Set(table.hiddenColumns));
    this.options = DEFAULT_OPTIONS;
    this.resetChecks();
    this.ports.send({
      type: 'read',
      file: {
        ...facts,
        delimiter: table.delimiter,
        headers: table.headers,
        headerLine: table.headerLine,
        mapping: this.mapping,
        samples: sampleRows(table, this.mapping, 3).map((row) => valuesOf(table, row)),
        looks: looksOf(table, rowCount),
        rowCount,
        problems: table.problems.slice(0, MAX_LISTED),
        problemCount: table.problems.length,
        lostLetters: this.lostLetters(table),
      },
      mapping: this.checkMapping(),
    });
  }

  private lostLetters(table: CsvTable): FileSummary['lostLetters'] {
    const { count, rows, example } = rowsWithLostLetters(table, LOST_LETTER_LINES);
    return { count, lines: rows.map((row) => table.lines[row] ?? 0), example };
  }

  map(mapping: ColumnMapping): void {
    this.mapping = mapping;
    this.resetChecks();
    this.ports.send({ type: 'mapped', mapping: this.checkMapping() });
  }

  /** The country the column step gives rows without one (README: "The import"), as the upload's query. */
  private countryQuery(): { country?: string } {
    return this.options.country === null ? {} : { country: this.options.country };
  }

  /** A new separator or placeholder list: the rows read differently, so every check starts again. */
  setOptions(options: ColumnOptions): void {
    this.options = options;
    this.resetChecks();
  }

  /**
   * The client-side structural check: which rows have no name under the current mapping. The parser
   * counted each column's blank values as it read the rows, so a new mapping is checked at once.
   */
  private checkMapping(): MappingCheck {
    const blanks = this.table?.blanks[nameColumnOf(this.mapping)];
    if (!this.table || !blanks || blanks.rows === 0) return { rowsWithoutName: 0, firstLinesWithoutName: [] };
    const { rows, firstLines } = namelessRows(this.table, this.mapping, this.options.placeholders, BLANK_LINES_KEPT);
    return { rowsWithoutName: rows, firstLinesWithoutName: firstLines };
  }

  private resetChecks(): void {
    this.fixHistory.length = 0;
    this.edits.clear();
    this.leftOut.clear();
    this.typedOverfull.clear();
    this.junk = null;
    this.health = new Uint8Array(this.rowCount());
    this.actions = new Uint8Array(this.rowCount());
    this.forgetChecks(null);
  }

  /** Forgets what the server said about `row`, or about every row (null), and its text for the filter (a fix changes it). */
  private forgetChecks(row: number | null): void {
    this.filtered = null;
    if (row === null) this.searchable = [];
    else this.searchable[row] = undefined;
    for (const marks of [
      this.errors,
      this.duplicates,
      this.skipReasons,
      this.changes,
      this.notes,
      this.samePlace,
      this.noKey,
      this.placeIdsTaken,
      this.codesInOtherCase,
      this.changedSince,
      this.extensions,
      this.phonesWithoutCountry,
      this.skippedChanges,
      this.codesWithoutZeros,
      this.hoursRead,
    ]) {
      if (row === null) marks.clear();
      else marks.delete(row);
    }
    if (row === null) {
      this.health.fill(0);
      this.actions.fill(0);
      this.samples = [];
    } else {
      this.health[row] = 0;
      this.actions[row] = 0;
      this.samples = this.samples.filter((sample) => sample.row !== row);
    }
  }

  /**
   * The server's dry run over every row not left out, in as many requests as the limits need, with
   * the mode and blank-cell rule the user chose (a new choice checks every row again).
   */
  async check(clientId: string, choice: ImportChoice = DEFAULT_CHOICE): Promise<void> {
    this.clientId = clientId;
    this.choice = choice;
    this.forgetChecks(null);
    this.flagJunk();
    const requests = await this.dryRun(clientId, this.includedRows());
    if (requests !== null) this.ports.send({ type: 'checked', report: this.report(requests) });
  }

  /** The server's dry run of `rows`, in as many requests as the limits need; null when one failed. */
  private async dryRun(clientId: string, rows: readonly number[]): Promise<number | null> {
    const rowJson = rows.map((row) => this.rowJson(row));
    const ranges = planRequests(rowJson, clientId, LIMITS);
    const path = uploadQuery(this.choice, { dryRun: 'true', duplicates: 'skip', ...this.countryQuery() });
    for (const [index, [start, end]] of ranges.entries()) {
      const answer = await this.send<DryRun>('checking', path, uploadBody(clientId, rowJson.slice(start, end)), {
        index,
        count: ranges.length,
        before: start,
        rows: end - start,
        total: rows.length,
      });
      if (!answer) return null;
      this.absorbDryRun(answer, rows.slice(start, end));
    }
    return ranges.length;
  }

  private absorbDryRun(answer: Pick<DryRun, 'rows' | 'errors'>, sent: readonly number[]): void {
    for (const preview of answer.rows) {
      const row = sent[preview.index];
      if (row === undefined) continue;
      // An overfull row is an error, not one to create or update: none of the lists of those holds it (a review).
      const problem = this.overfullProblem(row);
      if (problem) this.markError(row, problem.field, problem.message);
      else this.absorbRow(row, preview, sent);
    }
    this.absorbErrors(answer.errors, sent);
  }

  /**
   * A row with more values than the header has columns (parse-csv.ts): a value held the separator
   * unquoted, and every value after it moved. The values past the last column would be lost (a walk's
   * "Mo-Fr 7-18 Uhr; Sa 7-12" lost its Saturday, where the server's CSV upload refuses the file), so the
   * row is a problem on its last column's field until that field is typed again in its cell (fix(): a
   * bulk change of the column does not count, nor a change undone), or the row is left out.
   */
  private overfullProblem(row: number): { field: RowField | null; message: string } | null {
    const overfull = this.table?.overfull.get(row);
    if (!this.table || !overfull) return null;
    const columns = this.table.headers.length;
    const target = this.mapping[columns - 1];
    const field = target === null || target === undefined ? null : fieldOfTarget(target);
    const typed = this.typedOverfull.get(row);
    if (field !== null && typed !== undefined && this.edits.get(row)?.[field] === typed) return null;
    const shown = overfull.extras.slice(0, 3).map((value) => `"${value.trim()}"`);
    const more = overfull.extras.length > 3 ? ` and ${overfull.extras.length - 3} more` : '';
    const lost = shown.length > 0 ? `, and ${shown.join(', ')}${more} would be lost` : '';
    const fix =
      field === null ? 'Fix the file' : 'Check its values from that one on; type the last one whole here, fix the file';
    return {
      field,
      message: `This row has ${overfull.values} values for ${columns} columns: a value holds an unquoted "${this.table.delimiter}", which moves every value after it${lost}. ${fix}, or leave the row out.`,
    };
  }

  /** One row of the dry run: its action, and what the preview lists for it. */
  private absorbRow(row: number, preview: DryRunRow, sent: readonly number[]): void {
    this.actions[row] = 1 + ACTIONS.indexOf(preview.action);
    if (preview.action === 'error') return;
    this.health[row] = 1 + HEALTH_CODES.indexOf(preview.health_status);
    const duplicate = preview.duplicate_of;
    if (duplicate) {
      const ofRow = duplicate.row === undefined ? null : (sent[duplicate.row] ?? null);
      this.duplicates.set(row, { reason: duplicate.reason, ofRow });
    }
    if (preview.skip_reason !== null) this.skipReasons.set(row, preview.skip_reason);
    this.noteRow(row, preview);
    if (preview.action === 'updated' && preview.changes) this.changes.set(row, preview.changes);
    if (preview.action === 'created' && this.samples.length < SAMPLE_ROWS) {
      this.samples.push({ row, line: this.lineOf(row), location: preview });
    }
  }

  /** What the preview says of a row beside its action: its warnings, and its hours as read. */
  private noteRow(row: number, preview: DryRunRow): void {
    if (preview.note !== null) this.notes.add(row);
    if (preview.same_place_as !== null) this.samePlace.add(row);
    if (preview.no_key) this.noKey.add(row);
    if (preview.place_id_of !== null) this.placeIdsTaken.add(row);
    if (preview.store_code_case_of !== null) this.codesInOtherCase.add(row);
    if (preview.changed_since !== null) this.changedSince.add(row);
    if (preview.phone_extension !== null) this.extensions.add(row);
    if (preview.would_change !== null) this.skippedChanges.add(row);
    if (preview.store_code_given !== null) this.codesWithoutZeros.add(row);
    const hours = preview.hours && weekWords(preview.hours);
    if (hours) this.hoursRead.set(row, hours);
  }

  private absorbErrors(errors: DryRun['errors'], sent: readonly number[]): void {
    for (const error of errors) {
      const row = error.row === undefined ? undefined : sent[error.row];
      if (row === undefined) continue;
      this.markError(row, (error.field ?? null) as RowField | null, error.message);
      if (error.field === 'phone' && error.message.includes(NEEDS_A_COUNTRY)) this.phonesWithoutCountry.add(row);
    }
  }

  /** The row cannot be imported as it stands: a problem on `field` (null: the row's). */
  private markError(row: number, field: RowField | null, message: string): void {
    this.health[row] = 0;
    this.actions[row] = 1 + ACTIONS.indexOf('error');
    const list = this.errors.get(row) ?? [];
    list.push({ field, message });
    this.errors.set(row, list);
  }

  /** The user typed a new value into a flagged cell: that row alone goes through the dry run again. */
  async fix(row: number, field: RowField, value: string): Promise<void> {
    // Typed in the cell an overfull row's problem is on: the person has read the row (overfullProblem).
    if (this.overfullProblem(row)?.field === field) this.typedOverfull.set(row, value);
    await this.setValues({ rows: [row] }, field, value);
  }

  /**
   * Leaves rows out or puts them back. A row put back that the server never saw (a flagged row) is
   * checked; so are the rows judged beside the rows left out or put back (changeRows).
   */
  async leave(rows: LeaveTarget, leftOut: boolean): Promise<void> {
    // A second table's rows stay out: they would be read in the first table's columns.
    const targets = this.leaveTargets(rows).filter((row) => leftOut || !this.isLocked(row));
    this.filtered = null;
    await this.changeRows(
      targets,
      () => {
        for (const row of targets) {
          if (leftOut) this.leftOut.add(row);
          else this.leftOut.delete(row);
        }
      },
      false,
    );
  }

  /**
   * Changes rows (a fix, rows left out or put back), then checks again what that may have changed, in one
   * dry run so that the server sees them together: the rows (`all`, else only those never checked) and
   * the rows whose verdict hangs on them (partnerRows), in file order.
   */
  private async changeRows(rows: readonly number[], change: () => void, all: boolean): Promise<void> {
    const before = this.storeCodes(rows);
    change();
    const after = this.storeCodes(rows);
    const fresh = [...after].some((code) => !before.has(code));
    const verdicts = { rowCount: this.rowCount(), duplicates: this.duplicates, errors: this.errors };
    const storeCode = (row: number) => this.storeCodeOf(row);
    const partners = partnerRows(rows, new Set([...before, ...after]), { ...verdicts, storeCode }, fresh);
    const own = all || partners.length > 0 ? rows : rows.filter((row) => this.actions[row] === 0);
    const check = [...new Set([...own, ...partners])].filter((row) => !this.leftOut.has(row));
    if (check.length === 0) return this.sendReport();
    await this.recheck(check.sort((a, b) => a - b));
  }

  /** The store codes of those of `rows` that are not left out. */
  private storeCodes(rows: readonly number[]): Set<string> {
    const codes = new Set<string>();
    for (const row of rows) {
      const code = this.leftOut.has(row) ? null : this.storeCodeOf(row);
      if (code !== null) codes.add(code);
    }
    return codes;
  }

  /** A row's store code as it is now, edits included, from its cell alone (a scan of every row stays cheap). */
  private storeCodeOf(row: number): string | null {
    const column = this.mapping.indexOf('store_code');
    const code = (this.edits.get(row)?.store_code ?? (column < 0 ? '' : this.valuesOf(row)[column]) ?? '').trim();
    return code === '' ? null : code;
  }

  /** The junk-row rule over every row, once per mapping: the rows it flags are left out. */
  private flagJunk(): void {
    if (this.junk !== null || !this.table) return;
    this.junk = junkRows(this.table, this.mapping, this.options.placeholders);
    for (const row of this.junk.keys()) this.leftOut.add(row);
  }

  private isLocked(row: number): boolean {
    const reason = this.junk?.get(row);
    return reason !== undefined && LOCKED.has(reason);
  }

  /** The header repeated in another order, when the file has one: its line, and the rows from it down. */
  private secondTable(): CheckReport['secondTable'] {
    for (const [row, reason] of this.junk ?? []) {
      if (reason === 'header in another order') return { line: this.lineOf(row), rows: this.rowCount() - row };
    }
    return null;
  }

  private leaveTargets(rows: LeaveTarget): number[] {
    if (rows === 'problems') return [...this.errors.keys()];
    if (rows === 'duplicates') return [...this.duplicates.keys()];
    if (rows === 'flagged') return [...(this.junk?.keys() ?? [])];
    if (rows === 'changed-since') return [...this.changedSince];
    return Array.isArray(rows) ? rows : [...this.rowsShown(rows.filter)];
  }

  /**
   * The real import, request after request, each all or nothing on the server, with the mode and
   * blank-cell rule of the preview; the summary adds up the answers.
   */
  async import(
    clientId: string,
    duplicates: DuplicateHandling,
    choice: ImportChoice = this.choice,
    savedMapping: string | null = null,
  ): Promise<void> {
    this.choice = choice;
    this.cancelled = false;
    const rows = this.includedRows();
    const rowJson = rows.map((row) => this.rowJson(row));
    const ranges = planRequests(rowJson, clientId, LIMITS);
    // The saved mapping the rows were read with: the server marks it used (README: "Saved mappings").
    const path = uploadQuery(choice, {
      duplicates,
      ...this.countryQuery(),
      ...(savedMapping !== null ? { mapping: savedMapping } : {}),
      // A file's name may hold a control character (Linux allows them): the server's rule refuses those.
      ...(this.fileName !== null ? { fileName: withoutControlCharacters(this.fileName).slice(0, MAX_FILE_NAME) } : {}),
    });
    const written: Written = {
      imported: 0,
      updated: 0,
      unchanged: 0,
      skipped: 0,
      extensions: 0,
      sent: 0,
      operations: [],
    };
    for (const [index, [start, end]] of ranges.entries()) {
      const answer = await this.send<Imported>(
        'importing',
        path,
        uploadBody(clientId, rowJson.slice(start, end)),
        { index, count: ranges.length, before: written.sent, rows: end - start, total: rows.length },
        index > 0 ? { written: { ...written }, rowsNotSent: rows.length - start } : undefined,
        rows.slice(start, end),
      );
      if (answer?.operation_id) written.operations.push(answer.operation_id);
      if (this.cancelled) return this.undoWritten(written.operations);
      if (!answer) return;
      written.imported += answer.count;
      written.updated += answer.updated;
      written.unchanged += answer.unchanged;
      written.skipped += answer.skipped;
      written.extensions += answer.phone_extensions.length;
      written.sent += end - start;
    }
    this.ports.send({ type: 'imported', summary: this.summary(written, ranges.length, null) });
  }

  /**
   * Stops the import. A request whose body is still on its way is aborted (the server never writes a
   * body cut short); one already sent is let finish, so that its operation is known and undone.
   */
  cancel(): void {
    this.cancelled = true;
    const request = this.inFlight;
    // Only a body known to be part way: before the first progress event it may all have arrived already.
    if (request && request.sent > 0 && request.sent < request.size) request.abort.abort();
  }

  /** Undoes the requests an import wrote, newest first, and says what could not be undone. */
  private async undoWritten(operations: readonly string[]): Promise<void> {
    const report: CancelReport = { undone: 0, removed: 0, restored: 0, notUndone: [] };
    for (const operation of [...operations].reverse()) {
      try {
        const path = `/api/operations/${encodeURIComponent(operation)}/undo`;
        const undone = await this.withToken((token) =>
          this.ports.post<UndoResponse>(path, '{}', token, () => undefined),
        );
        report.undone++;
        report.removed += undone.removed;
        report.restored += undone.restored;
      } catch (error) {
        report.notUndone.push({ operation, message: error instanceof Error ? error.message : String(error) });
      }
    }
    this.ports.send({ type: 'cancelled', report });
  }

  /**
   * A window of the rows the filter shows, for the grid to draw (the rows stay here), and which of the
   * `selected` rows it no longer shows.
   */
  grid(id: number, filter: GridFilter, start: number, end: number, selected: readonly number[] = []): void {
    const { rows, leftOut } = this.shownWithLeftOut(filter);
    // Over the flagged rows (a few), not every row shown (100,000 on each scroll: a review).
    const lockedRows = [...(this.junk ?? [])].flatMap(([row, reason]) => (LOCKED.has(reason) ? [row] : []));
    const shownOf = (list: readonly number[]) => list.filter((row) => this.isShown(row, filter)).length;
    this.ports.send({
      type: 'grid',
      window: {
        id,
        start,
        total: rows.length,
        rows: rows.slice(start, end).map((row) => this.gridRow(row)),
        fields: this.mappedFields(),
        canUndo: this.fixHistory.length > 0,
        hidden: selected.filter((row) => !this.isShown(row, filter)),
        locked: { shown: shownOf(lockedRows), selected: shownOf(selected.filter((row) => this.isLocked(row))) },
        leftOut: { shown: leftOut, selected: shownOf(selected.filter((row) => this.leftOut.has(row))) },
      },
    });
  }

  /** Sets one field of the rows to `value`; the changed rows go through one dry run. */
  async setValues(target: RowSelection, field: RowField, value: string): Promise<void> {
    await this.applyFix(
      field,
      this.targetRows(target).map((row) => [row, value]),
    );
  }

  /** Find and replace in one field: counts the rows it changes, or changes them (`apply`). */
  async replace(target: RowSelection, field: RowField, find: string, replacement: string, apply: boolean) {
    const changes: [number, string][] = [];
    for (const row of this.targetRows(target)) {
      const next = replaced(rowValueText(this.uploadRow(row)[field]), find, replacement);
      if (next !== null) changes.push([row, next]);
    }
    if (!apply) return this.ports.send({ type: 'replace-count', count: changes.length });
    await this.applyFix(field, changes);
  }

  /** Puts back the rows of the last fix as they were, and checks them again. */
  async undoFix(): Promise<void> {
    const before = this.fixHistory.pop();
    if (!before) return;
    await this.changeRows(
      [...before.keys()],
      () => {
        for (const [row, edits] of before) {
          if (edits) this.edits.set(row, edits);
          else this.edits.delete(row);
        }
      },
      true,
    );
  }

  /** The rows left out or with problems, as a CSV to send back to the client. */
  problemsCsv(): void {
    const headers = this.table?.headers ?? [];
    const rows = [...new Set([...this.errors.keys(), ...this.leftOut])].sort((a, b) => a - b);
    const returned = rows.map((row) => ({
      line: this.lineOf(row),
      reasons: reasonsOf(this.errors.get(row) ?? [], this.leftOut.has(row), ROW_FIELD_LABELS),
      cells: headers.map((_, column) => this.valuesOf(row)[column] ?? ''),
    }));
    this.ports.send({ type: 'problems-csv', csv: returnedRowsCsv(headers, returned), rows: rows.length });
  }

  /** One fix over many rows: remembered for "Undo", then the changed rows alone are checked again. */
  private async applyFix(field: RowField, changes: readonly [number, string][]): Promise<void> {
    if (changes.length === 0) return this.sendReport();
    const before = new Map<number, RowEdits | undefined>();
    const change = () => {
      for (const [row, value] of changes) {
        const edits = this.edits.get(row);
        before.set(row, edits);
        this.edits.set(row, { ...edits, [field]: value });
      }
      this.fixHistory.push(before);
    };
    await this.changeRows(
      changes.map(([row]) => row),
      change,
      true,
    );
  }

  /** The preview's report as the rows stand now, counted in the requests the import would need. */
  private sendReport(): void {
    this.ports.send({ type: 'checked', report: this.report(this.requestCount()) });
  }

  /** The dry run of some rows again (in as many requests as the limits need), then the new report. */
  private async recheck(rows: readonly number[]): Promise<void> {
    if (!this.clientId) return;
    for (const row of rows) this.forgetChecks(row);
    if ((await this.dryRun(this.clientId, rows)) === null) return;
    this.sendReport();
  }

  private targetRows(target: RowSelection): number[] {
    if ('rows' in target) return target.rows.filter((row) => row >= 0 && row < this.rowCount());
    return [...this.rowsShown(target.filter)];
  }

  private rowsShown(filter: GridFilter): number[] {
    return this.shownWithLeftOut(filter).rows;
  }

  private shownWithLeftOut(filter: GridFilter): { rows: number[]; leftOut: number } {
    const key = `${filter.show}\u0000${filter.text}`;
    if (this.filtered?.key === key) return this.filtered;
    const rows: number[] = [];
    let leftOut = 0;
    for (let row = 0; row < this.rowCount(); row++) {
      if (!this.isShown(row, filter)) continue;
      rows.push(row);
      if (this.leftOut.has(row)) leftOut++;
    }
    this.filtered = { key, rows, leftOut };
    return this.filtered;
  }

  private isShown(row: number, filter: GridFilter): boolean {
    if (row < 0 || row >= this.rowCount()) return false;
    const searchable = () => (this.searchable[row] ??= searchableText(this.gridRow(row).values));
    return shows({ status: this.statusOf(row), line: this.lineOf(row), searchable }, filter);
  }

  private statusOf(row: number): GridRow['status'] {
    if (this.leftOut.has(row)) return 'left-out';
    const code = this.actions[row] ?? 0;
    return code === 0 ? 'unchecked' : (ACTIONS[code - 1] as RowAction);
  }

  private gridRow(row: number): GridRow {
    const upload = this.uploadRow(row);
    const values: GridRow['values'] = {};
    for (const field of FIELDS) {
      if (field in upload) values[field] = rowValueText(upload[field]);
    }
    const junk = this.junk?.get(row);
    return {
      row,
      line: this.lineOf(row),
      status: this.statusOf(row),
      values,
      errors: this.errors.get(row) ?? [],
      flag: junk ? JUNK_LABELS[junk] : null,
      locked: this.isLocked(row),
      hoursRead: this.hoursRead.get(row) ?? null,
    };
  }

  /** The fields the mapping feeds, in the fields' order. */
  private mappedFields(): RowField[] {
    const fed = new Set<RowField>(['name']);
    for (const target of this.mapping) {
      if (target === null) continue;
      fed.add(fieldOfTarget(target));
    }
    return FIELDS.filter((field) => fed.has(field));
  }

  private summary(written: Written, requests: number, failure: ImportSummary['failure']): ImportSummary {
    const { sent: _sent, operations, ...counts } = written;
    return { ...counts, operations: [...operations], leftOut: this.leftOut.size, requests, failure };
  }

  /**
   * Sends one request with a fresh token (one renewal on a 401) and reports its upload progress.
   * On failure it tells the page and answers undefined; during an import that already created rows
   * it ends on a summary that says which request failed.
   */
  private async send<T>(
    stage: ImportStage,
    path: string,
    body: string,
    batch: { index: number; count: number; before: number; rows: number; total: number },
    partial?: { written: Written; rowsNotSent: number },
    sentRows?: readonly number[],
  ): Promise<T | undefined> {
    const inFlight: InFlight = { sent: 0, size: 0, abort: new AbortController() };
    if (stage === 'importing') this.inFlight = inFlight;
    const onProgress = (loaded: number, size: number) => {
      inFlight.sent = loaded;
      inFlight.size = size;
      this.ports.send({
        type: 'progress',
        stage,
        done: batch.before + (size > 0 ? Math.round((batch.rows * loaded) / size) : 0),
        total: batch.total,
        request: { index: batch.index, count: batch.count },
      });
    };
    try {
      return await this.withToken((token) => this.ports.post<T>(path, body, token, onProgress, inFlight.abort.signal));
    } catch (error) {
      if (this.cancelled && stage === 'importing') return undefined;
      const failure = error instanceof ApiError ? error : new ApiError(0, String(error));
      if (stage === 'importing' && failure.status === 400 && sentRows) {
        // The server found rows it will not take: show them in the preview like the dry run would.
        this.absorbErrors(failure.details, sentRows);
        this.sendReport();
      }
      this.reportFailure(stage, toErrorInfo(failure), batch, partial);
      return undefined;
    } finally {
      if (this.inFlight === inFlight) this.inFlight = null;
    }
  }

  private reportFailure(
    stage: ImportStage,
    error: ApiErrorInfo,
    batch: { index: number; count: number },
    partial?: { written: Written; rowsNotSent: number },
  ): void {
    if (!partial) return this.ports.send({ type: 'failed', stage, error });
    const failure = { request: batch.index + 1, error, rowsNotSent: partial.rowsNotSent };
    this.ports.send({ type: 'imported', summary: this.summary(partial.written, batch.count, failure) });
  }

  private async withToken<T>(call: (token: string) => Promise<T>): Promise<T> {
    const token = await this.ports.token(false);
    if (!token) throw new ApiError(401, 'Your session has ended. Please sign in again.');
    try {
      return await call(token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      const renewed = await this.ports.token(true);
      if (!renewed) throw error;
      return call(renewed);
    }
  }

  private includedRows(): number[] {
    const count = this.rowCount();
    const rows: number[] = [];
    for (let row = 0; row < count; row++) if (!this.leftOut.has(row)) rows.push(row);
    return rows;
  }

  private requestCount(): number {
    if (!this.clientId) return 1;
    const clientId = this.clientId;
    return planRequests(
      this.includedRows().map((row) => this.rowJson(row)),
      clientId,
      LIMITS,
    ).length;
  }

  /** A row as the request sends it, with its line in the file: the server names it in the row's errors. */
  private rowJson(row: number): string {
    const line = this.lineOf(row);
    const values = this.uploadRow(row);
    return JSON.stringify(line > 0 ? { ...values, line } : values);
  }

  private rowCount(): number {
    return this.table ? rowCountOf(this.table) : 0;
  }

  private valuesOf(row: number): string[] {
    return this.table ? valuesOf(this.table, row) : [];
  }

  private lineOf(row: number): number {
    return this.table?.lines[row] ?? 0;
  }

  private report(requests: number): CheckReport {
    const totals: Totals = { created: 0, updated: 0, unchanged: 0, skipped: 0, error: 0 };
    const health: Record<Health, number> = { green: 0, yellow: 0, red: 0, closed: 0 };
    this.actions.forEach((code, row) => {
      if (code === 0 || this.leftOut.has(row)) return;
      const action = ACTIONS[code - 1] as RowAction;
      totals[action]++;
      const writes = action === 'created' || action === 'updated';
      if (writes && this.health[row]) health[HEALTH_CODES[this.health[row] - 1] as Health]++;
    });
    const listed = (rows: Iterable<number>) => [...rows].sort((a, b) => a - b).slice(0, MAX_LISTED);
    const included = (rows: Iterable<number>) => [...rows].filter((row) => !this.leftOut.has(row));
    const unchanged = this.rowsWith('unchanged', UNCHANGED_LISTED);
    // A warning's rows (not left out): how many, and the lines of the first MAX_LISTED.
    const counted = (marks: ReadonlySet<number>) => {
      const rows = included(marks);
      return { count: rows.length, lines: listed(rows).map((row) => this.lineOf(row)) };
    };
    return {
      rowCount: this.rowCount(),
      requests,
      limits: { rows: MAX_IMPORT_ROWS, bytes: MAX_IMPORT_BYTES },
      choice: this.choice,
      totals,
      duplicates: included(this.duplicates.keys()).length,
      leftOut: this.leftOut.size,
      flagged: [...(this.junk?.keys() ?? [])].filter((row) => this.leftOut.has(row) && !this.isLocked(row)).length,
      secondTable: this.secondTable(),
      health,
      problems: listed(this.errors.keys()).map((row) => this.problemRow(row)),
      skipped: listed(new Set([...this.duplicates.keys(), ...this.skipReasons.keys()])).map((row) =>
        this.skippedRow(row),
      ),
      updated: listed(included(this.changes.keys())).map((row) => ({
        ...this.listedRow(row),
        changes: this.changes.get(row) as Changes,
      })),
      unchanged: unchanged.map((row) => this.listedRow(row)),
      samples: this.samples.filter((sample) => !this.leftOut.has(sample.row)),
      foreignIds: counted(this.notes),
      samePlace: counted(this.samePlace),
      noKey: counted(this.noKey),
      placeIdsTaken: counted(this.placeIdsTaken),
      codesInOtherCase: counted(this.codesInOtherCase),
      changedSince: counted(this.changedSince),
      phoneExtensions: counted(this.extensions),
      codesWithoutZeros: counted(this.codesWithoutZeros),
      phonesWithoutCountry: counted(this.phonesWithoutCountry),
      skippedWithChanges: counted(this.skippedChanges),
      country: this.options.country,
    };
  }

  /** The first `limit` rows (not left out) the server gave `action`. */
  private rowsWith(action: RowAction, limit: number): number[] {
    const code = 1 + ACTIONS.indexOf(action);
    const rows: number[] = [];
    for (let row = 0; row < this.actions.length && rows.length < limit; row++) {
      if (this.actions[row] === code && !this.leftOut.has(row)) rows.push(row);
    }
    return rows;
  }

  private uploadRow(row: number) {
    return uploadRowOf(this.valuesOf(row), this.mapping, this.edits.get(row), this.choice.blanks, this.options);
  }

  private listedRow(row: number): ListedRow {
    const values = this.uploadRow(row);
    const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null);
    return { row, line: this.lineOf(row), name: values.name, address: text(values.address), city: text(values.city) };
  }

  private problemRow(row: number): ProblemRow {
    return {
      row,
      line: this.lineOf(row),
      values: this.uploadRow(row),
      errors: this.errors.get(row) ?? [],
      leftOut: this.leftOut.has(row),
    };
  }

  private skippedRow(row: number): SkippedRow {
    const mark = this.duplicates.get(row);
    return {
      ...this.listedRow(row),
      duplicate: mark ? { reason: mark.reason, ofLine: mark.ofRow === null ? null : this.lineOf(mark.ofRow) } : null,
      skipReason: this.skipReasons.get(row) ?? null,
      leftOut: this.leftOut.has(row),
    };
  }

  private lastProgress = 0;

  /** Progress at most every 50 ms, so the page is not flooded with messages. */
  private progress(stage: ImportStage, done: number, total: number): void {
    const now = Date.now();
    if (done < total && now - this.lastProgress < 50) return;
    this.lastProgress = now;
    this.ports.send({ type: 'progress', stage, done, total });
  }
}
