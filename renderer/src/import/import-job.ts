import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, type RowField } from '../../../server/locations/schemas.js';
import { ApiError, toErrorInfo } from '../api/http.js';
import type { DryRun, DuplicateHandling, Health, Imported } from '../api/types.js';
import { decodeInto, type ByteSource, type TextEncodingName } from './decode.js';
import { mapHeaders, nameColumnOf, type ColumnMapping } from './header-mapping.js';
import { CsvParser, rowCountOf, valuesOf, type CsvTable } from './parse-csv.js';
import {
  MAX_LISTED,
  type CheckReport,
  type DuplicateRow,
  type FromWorker,
  type ImportStage,
  type MappingCheck,
  type ProblemRow,
  type SampleRow,
} from './protocol.js';
import { planRequests, uploadBody, uploadRowOf, type RowEdits } from './upload-rows.js';

/** What the job needs from outside: a way to talk to the page, a token, and an upload channel. */
export interface JobPorts {
  send(message: FromWorker): void;
  token(renew: boolean): Promise<string | null>;
  post<T>(path: string, body: string, token: string, onProgress: (sent: number, total: number) => void): Promise<T>;
}

// A little under the server's limit, so the request line and headers never tip a body over it.
const LIMITS = { rows: MAX_IMPORT_ROWS, bytes: MAX_IMPORT_BYTES - 64 * 1024 };
const SAMPLE_ROWS = 20;
const HEALTH_CODES: Health[] = ['green', 'yellow', 'red'];

interface DuplicateMark {
  reason: DuplicateRow['reason'];
  ofRow: number | null;
}

/**
 * One CSV import, from the dropped file to the summary. It lives in the worker and keeps the rows
 * there: the page only ever receives summaries and the rows that need the user's attention.
 */
export class ImportJob {
  private table: CsvTable | null = null;
  private mapping: ColumnMapping = [];
  private clientId: string | null = null;
  private readonly edits = new Map<number, RowEdits>();
  private readonly leftOut = new Set<number>();
  private readonly errors = new Map<number, ProblemRow['errors']>();
  private readonly duplicates = new Map<number, DuplicateMark>();
  /** Per row: 0 not checked or invalid, else 1 + index in HEALTH_CODES. */
  private health = new Uint8Array(0);
  private samples: SampleRow[] = [];

  constructor(private readonly ports: JobPorts) {}

  /** Decodes, parses and maps a file; answers `read` with what the mapping screen needs, or `rejected`. */
  async read(file: ByteSource & { name: string }, encoding?: TextEncodingName): Promise<void> {
    // A previous file's rows go first, so two files never sit in the worker's memory at once.
    this.table = null;
    this.resetChecks();
    let parser = new CsvParser();
    const decoded = await decodeInto(file, () => (parser = new CsvParser()), {
      // The last bytes are followed at once by the mapping screen: no 100% for the page to draw first.
      onProgress: (bytes) => {
        if (bytes < file.size) this.progress('parsing', bytes, file.size);
      },
      forced: encoding,
    });
    if (!decoded.ok) return this.ports.send({ type: 'rejected', message: decoded.message });
    const table = parser.end();
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
    this.mapping = mapHeaders(table.headers);
    this.resetChecks();
    this.ports.send({
      type: 'read',
      file: {
        name: file.name,
        size: file.size,
        encoding: decoded.encoding,
        delimiter: table.delimiter,
        headers: table.headers,
        mapping: this.mapping,
        samples: [0, 1, 2].filter((row) => row < rowCount).map((row) => valuesOf(table, row)),
        rowCount,
        problems: table.problems.slice(0, MAX_LISTED),
        problemCount: table.problems.length,
      },
      mapping: this.checkMapping(),
    });
  }

  map(mapping: ColumnMapping): void {
    this.mapping = mapping;
    this.resetChecks();
    this.ports.send({ type: 'mapped', mapping: this.checkMapping() });
  }

  /**
   * The client-side structural check: which rows have no name under the current mapping. The parser
   * counted each column's blank values as it read the rows, so a new mapping is checked at once.
   */
  private checkMapping(): MappingCheck {
    const blanks = this.table?.blanks[nameColumnOf(this.mapping)];
    return { rowsWithoutName: blanks?.rows ?? 0, firstLinesWithoutName: [...(blanks?.firstLines ?? [])] };
  }

  private resetChecks(): void {
    this.edits.clear();
    this.leftOut.clear();
    this.errors.clear();
    this.duplicates.clear();
    this.health = new Uint8Array(this.rowCount());
    this.samples = [];
  }

  /** The server's dry run over every row not left out, in as many requests as the limits need. */
  async check(clientId: string): Promise<void> {
    this.clientId = clientId;
    const rows = this.includedRows();
    for (const row of rows) {
      this.errors.delete(row);
      this.duplicates.delete(row);
      this.health[row] = 0;
    }
    this.samples = [];
    const rowJson = rows.map((row) => this.rowJson(row));
    const ranges = planRequests(rowJson, clientId, LIMITS);
    let checked = 0;
    for (const [index, [start, end]] of ranges.entries()) {
      const body = uploadBody(clientId, rowJson.slice(start, end));
      const answer = await this.send<DryRun>('checking', '/api/locations/upload?dryRun=true&duplicates=skip', body, {
        index,
        count: ranges.length,
        before: checked,
        rows: end - start,
        total: rows.length,
      });
      if (!answer) return;
      this.absorbDryRun(answer, rows.slice(start, end));
      checked += end - start;
    }
    this.ports.send({ type: 'checked', report: this.report(ranges.length) });
  }

  private absorbDryRun(answer: DryRun, sent: readonly number[]): void {
    for (const preview of answer.rows) {
      const row = sent[preview.index];
      if (row === undefined) continue;
      this.health[row] = 1 + HEALTH_CODES.indexOf(preview.health_status);
      const duplicate = preview.duplicate_of;
      if (duplicate) {
        const ofRow = duplicate.row === undefined ? null : (sent[duplicate.row] ?? null);
        this.duplicates.set(row, { reason: duplicate.reason, ofRow });
      } else if (this.samples.length < SAMPLE_ROWS) {
        const {
          index: _index,
          health_score,
          health_status,
          health_issues,
          duplicate_of: _duplicate,
          ...values
        } = preview;
        this.samples.push({
          line: this.lineOf(row),
          values,
          health: health_status,
          healthScore: health_score,
          issues: health_issues,
        });
      }
    }
    for (const error of answer.errors) {
      const row = error.row === undefined ? undefined : sent[error.row];
      if (row === undefined) continue;
      this.health[row] = 0;
      const list = this.errors.get(row) ?? [];
      list.push({ field: (error.field ?? null) as RowField | null, message: error.message });
      this.errors.set(row, list);
    }
  }

  /** The user typed a new value into a flagged cell: that row alone goes through the dry run again. */
  async fix(row: number, field: RowField, value: string): Promise<void> {
    const edits = { ...this.edits.get(row), [field]: value };
    this.edits.set(row, edits);
    if (!this.clientId) return;
    this.errors.delete(row);
    this.duplicates.delete(row);
    this.health[row] = 0;
    const answer = await this.send<DryRun>(
      'checking',
      '/api/locations/upload?dryRun=true&duplicates=skip',
      uploadBody(this.clientId, [this.rowJson(row)]),
      { index: 0, count: 1, before: 0, rows: 1, total: 1 },
    );
    if (!answer) return;
    this.absorbDryRun(answer, [row]);
    this.ports.send({ type: 'checked', report: this.report(this.requestCount()) });
  }

  leave(rows: number[] | 'problems' | 'duplicates', leftOut: boolean): void {
    const targets =
      rows === 'problems' ? [...this.errors.keys()] : rows === 'duplicates' ? [...this.duplicates.keys()] : rows;
    for (const row of targets) {
      if (leftOut) this.leftOut.add(row);
      else this.leftOut.delete(row);
    }
    this.ports.send({ type: 'checked', report: this.report(this.requestCount()) });
  }

  /** The real import, request after request; the summary says what was created and what was not. */
  async import(clientId: string, duplicates: DuplicateHandling): Promise<void> {
    const rows = this.includedRows();
    const rowJson = rows.map((row) => this.rowJson(row));
    const ranges = planRequests(rowJson, clientId, LIMITS);
    let imported = 0;
    let sent = 0;
    for (const [index, [start, end]] of ranges.entries()) {
      const answer = await this.send<Imported>(
        'importing',
        `/api/locations/upload?duplicates=${duplicates}`,
        uploadBody(clientId, rowJson.slice(start, end)),
        { index, count: ranges.length, before: sent, rows: end - start, total: rows.length },
        index > 0 ? { imported, sent, rowsNotSent: rows.length - start } : undefined,
        rows.slice(start, end),
      );
      if (!answer) return;
      imported += answer.count;
      sent += end - start;
    }
    this.ports.send({
      type: 'imported',
      summary: {
        imported,
        leftOut: this.leftOut.size,
        duplicates: sent - imported,
        requests: ranges.length,
        failure: null,
      },
    });
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
    partial?: { imported: number; sent: number; rowsNotSent: number },
    sentRows?: readonly number[],
  ): Promise<T | undefined> {
    const onProgress = (loaded: number, size: number) =>
      this.ports.send({
        type: 'progress',
        stage,
        done: batch.before + (size > 0 ? Math.round((batch.rows * loaded) / size) : 0),
        total: batch.total,
        request: { index: batch.index, count: batch.count },
      });
    try {
      return await this.withToken((token) => this.ports.post<T>(path, body, token, onProgress));
    } catch (error) {
      const failure = error instanceof ApiError ? error : new ApiError(0, String(error));
      if (stage === 'importing' && failure.status === 400 && sentRows) {
        // The server found rows it will not take: show them in the preview like the dry run would.
        this.absorbDryRun(
          { dry_run: true, valid: false, count: 0, duplicates: 0, rows: [], errors: failure.details },
          sentRows,
        );
        this.ports.send({ type: 'checked', report: this.report(this.requestCount()) });
      }
      if (partial) {
        this.ports.send({
          type: 'imported',
          summary: {
            imported: partial.imported,
            leftOut: this.leftOut.size,
            duplicates: partial.sent - partial.imported,
            requests: batch.count,
            failure: { request: batch.index + 1, error: toErrorInfo(failure), rowsNotSent: partial.rowsNotSent },
          },
        });
      } else this.ports.send({ type: 'failed', stage, error: toErrorInfo(failure) });
      return undefined;
    }
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

  private rowJson(row: number): string {
    return JSON.stringify(uploadRowOf(this.valuesOf(row), this.mapping, this.edits.get(row)));
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
    const health: Record<Health, number> = { green: 0, yellow: 0, red: 0 };
    let ready = 0;
    this.health.forEach((code, row) => {
      if (code === 0 || this.leftOut.has(row) || this.duplicates.has(row)) return;
      ready++;
      health[HEALTH_CODES[code - 1] as Health]++;
    });
    const problemRows = [...this.errors.keys()].sort((a, b) => a - b);
    const duplicateRows = [...this.duplicates.keys()].sort((a, b) => a - b);
    return {
      rowCount: this.rowCount(),
      requests,
      limits: { rows: MAX_IMPORT_ROWS, bytes: MAX_IMPORT_BYTES },
      ready,
      duplicates: duplicateRows.filter((row) => !this.leftOut.has(row)).length,
      leftOut: this.leftOut.size,
      problemCount: problemRows.filter((row) => !this.leftOut.has(row)).length,
      health,
      problems: problemRows.slice(0, MAX_LISTED).map((row) => ({
        row,
        line: this.lineOf(row),
        values: uploadRowOf(this.valuesOf(row), this.mapping, this.edits.get(row)),
        errors: this.errors.get(row) ?? [],
        leftOut: this.leftOut.has(row),
      })),
      duplicateRows: duplicateRows.slice(0, MAX_LISTED).map((row) => {
        const values = uploadRowOf(this.valuesOf(row), this.mapping, this.edits.get(row));
        const mark = this.duplicates.get(row) as DuplicateMark;
        return {
          row,
          line: this.lineOf(row),
          name: values.name,
          address: values.address ?? null,
          city: values.city ?? null,
          reason: mark.reason,
          ofLine: mark.ofRow === null ? null : this.lineOf(mark.ofRow),
          leftOut: this.leftOut.has(row),
        };
      }),
      samples: this.samples,
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
