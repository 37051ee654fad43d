import type { BlankCells } from '../locations/schemas.js';
import { csvCells, type Cells } from './csv-text.js';
import { tableRows, type SavedMapping } from './table-rows.js';

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
  rows: unknown[];
  /** The answer's `sheet` (an .xlsx's), `columns` and `left_out`, as JSON members to add to it. */
  answerMembers: string;
}

/** The rows of a CSV or .xlsx body, or why not (a 400 or 413 in the API's words). */
export function readTableBody(
  body: Uint8Array,
  format: TableFormat,
): TableBody | { statusCode: number; message: string } {
  const read = format.kind === 'csv' ? csvCells(body, format.charset) : { cells: format.cells ?? [] };
  if ('statusCode' in read) return read;
  const { blanks, keepFlagged, mapping, placeholders } = format;
  const table = tableRows(read.cells, {
    blanks,
    keepFlagged,
    placeholders,
    refuseExtraValues: format.kind === 'csv',
    ...(format.kind === 'xlsx' && format.hiddenColumns ? { hiddenColumns: new Set(format.hiddenColumns) } : {}),
    ...(mapping ? { mapping } : {}),
  });
  if ('statusCode' in table) return table;
  return {
    clientId: format.clientId,
    rows: table.rows,
    answerMembers:
      (format.kind === 'xlsx' && format.sheet !== undefined ? `"sheet":${JSON.stringify(format.sheet)},` : '') +
      `"columns":${JSON.stringify(table.columns)},"left_out":${JSON.stringify(table.left_out)}`,
  };
}
