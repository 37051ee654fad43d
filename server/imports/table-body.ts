import type { BlankCells } from '../locations/schemas.js';
import { csvCells, type Cells } from './csv-text.js';
import type { LeftOutRow } from './schemas.js';
import { tableReader, type SavedMapping, type TableReader } from './table-rows.js';

/**
 * An upload whose body is a CSV or an .xlsx file rather than JSON rows (ImportRequest.format): the
 * client comes from the query, the rows from the file. An .xlsx file is read into cells on the writer
 * thread before the import (xlsx-cells.ts is async); a CSV is read here.
 */
export type TableFormat = {
  clientId: string;
  blanks: BlankCells;
  keepFlagged: boolean;
  /** 'none': no cell is read as a placeholder (?placeholders=none). */
  placeholders?: 'none';
  /** A saved mapping's columns and options (server/mappings/), instead of matching the headers. */
  mapping?: SavedMapping;
} & (
  | { kind: 'csv'; charset?: string }
  | {
      kind: 'xlsx';
      sheet?: string;
      cells?: Cells;
      /** 0-based, as workbook-facts.ts reads them. */ hiddenColumns?: number[];
    }
);

export interface TableBody {
  clientId: string;
  /** The rows, read a piece of lines at a time as the import plans them. */
  reader: TableReader;
  /** The answer's `sheet` (an .xlsx's), `columns` and `left_out`, as JSON members to add to it. */
  answerMembers(leftOut: readonly LeftOutRow[]): string;
}

/**
 * The rows of a CSV or .xlsx body, or why not (a 400 or 413 in the API's words): the file read into
 * cells and its header matched; its rows are made from the cells a piece at a time (tableReader).
 */
export function readTableBody(
  body: Uint8Array,
  format: TableFormat,
): TableBody | { statusCode: number; message: string } {
  const read = format.kind === 'csv' ? csvCells(body, format.charset) : { cells: format.cells ?? [] };
  if ('statusCode' in read) return read;
  const { blanks, keepFlagged, mapping, placeholders } = format;
  const reader = tableReader(read.cells, {
    blanks,
    keepFlagged,
    placeholders,
    refuseExtraValues: format.kind === 'csv',
    ...(format.kind === 'xlsx' && format.hiddenColumns ? { hiddenColumns: new Set(format.hiddenColumns) } : {}),
    ...(mapping ? { mapping } : {}),
  });
  if ('statusCode' in reader) return reader;
  const sheet = format.kind === 'xlsx' && format.sheet !== undefined ? `"sheet":${JSON.stringify(format.sheet)},` : '';
  return {
    clientId: format.clientId,
    reader,
    answerMembers: (leftOut) =>
      `${sheet}"columns":${JSON.stringify(reader.columns)},"left_out":${JSON.stringify(leftOut)}`,
  };
}
