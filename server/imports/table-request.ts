import { HttpError, Invalid } from '../http/errors.js';
import type { BlankCells } from '../locations/schemas.js';
import { CSV_TYPE, TEXT_TYPE, TSV_TYPE, XLS_TYPE, XLSX_TYPE } from './schemas.js';
import type { TableFormat } from './table-body.js';

/** The body types the upload reads as a file, beside JSON. */
export const TABLE_TYPES = [CSV_TYPE, XLSX_TYPE, XLS_TYPE, TSV_TYPE, TEXT_TYPE];

// Types whose body is delimited text, read as a CSV (its delimiter found as a CSV's is): a body sent as
// application/vnd.ms-excel that is no .xls (the parser refused those) is a CSV Windows labelled so.
const DELIMITED_TYPES = new Set([CSV_TYPE, XLS_TYPE, TSV_TYPE, TEXT_TYPE]);

/** A text/plain body that is JSON: read as a table it would be one odd column, so the answer says what to do. */
export const JSON_AS_TEXT = new HttpError(
  415,
  'This body is JSON sent as text/plain: send JSON rows with Content-Type: application/json (a CSV or tab-separated file may be text/plain).',
);

/** Whether a text/plain body starts as JSON does (`{` or `[` after any blank, a byte order mark aside). */
export function looksLikeJson(start: Uint8Array | undefined): boolean {
  if (start === undefined) return false;
  let at = start[0] === 0xef && start[1] === 0xbb && start[2] === 0xbf ? 3 : 0;
  while (at < start.length && (start[at] === 0x20 || start[at] === 0x09 || start[at] === 0x0a || start[at] === 0x0d))
    at++;
  return start[at] === 0x7b || start[at] === 0x5b;
}

/** An old .xls workbook: read-excel-file reads .xlsx only, so the answer says what to do. */
export const XLS_REFUSAL = new HttpError(
  415,
  'This is an old Excel workbook (.xls). In Excel, choose File > Save As and pick "Excel Workbook (.xlsx)" or "CSV UTF-8", then send that file.',
);

// The Compound File (OLE2) signature every .xls starts with.
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** Whether a body sent as application/vnd.ms-excel is an old workbook (.xls), not a CSV Windows labelled so. */
export function isOldWorkbook(start: Uint8Array | undefined): boolean {
  return start !== undefined && OLE2.every((byte, at) => start[at] === byte);
}

interface TableQuery {
  clientId?: string;
  mapping?: string;
  sheet?: string;
  keep_flagged?: boolean;
  placeholders?: 'default' | 'none';
}

/** The media type and its charset parameter, from a Content-Type header. */
function mediaType(header: string): { type: string; charset?: string } {
  const [type = '', ...params] = header.split(';').map((part) => part.trim());
  const charset = params
    .find((param) => /^charset=/i.test(param))
    ?.slice(8)
    .replace(/^"|"$/g, '');
  return { type: type.toLowerCase(), ...(charset ? { charset } : {}) };
}

/** How to read an upload's body: undefined for JSON rows, else the CSV or .xlsx file's format. */
export function tableFormatOf(contentType: string, query: TableQuery, blanks: BlankCells): TableFormat | undefined {
  const { type: given, charset } = mediaType(contentType);
  const type = DELIMITED_TYPES.has(given) ? CSV_TYPE : given;
  if (type !== CSV_TYPE && type !== XLSX_TYPE) return undefined;
  if (query.clientId === undefined) throw Invalid('A CSV or .xlsx upload names its client in the query: ?clientId=');
  const common = {
    clientId: query.clientId.toLowerCase(),
    blanks,
    keepFlagged: query.keep_flagged ?? false,
    ...(query.placeholders === 'none' ? { placeholders: 'none' as const } : {}),
  };
  if (type === CSV_TYPE) return { ...common, kind: 'csv', ...(charset ? { charset } : {}) };
  return { ...common, kind: 'xlsx', ...(query.sheet !== undefined ? { sheet: query.sheet } : {}) };
}
