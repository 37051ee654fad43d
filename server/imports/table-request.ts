import { HttpError, Invalid } from '../http/errors.js';
import type { BlankCells } from '../locations/schemas.js';
import { CSV_TYPE, TEXT_TYPE, TSV_TYPE, XLS_TYPE, XLSX_TYPE } from './schemas.js';
import type { TableFormat } from './table-body.js';

/** The body types the upload reads as a file, beside JSON. */
export const TABLE_TYPES = [CSV_TYPE, XLSX_TYPE, XLS_TYPE, TSV_TYPE, TEXT_TYPE];

// Types whose body is delimited text, read as a CSV (its delimiter found as a CSV's is): a body sent as
// application/vnd.ms-excel that is no .xls (the parser refused those) is a CSV Windows labelled so.
const DELIMITED_TYPES = new Set([CSV_TYPE, XLS_TYPE, TSV_TYPE, TEXT_TYPE]);

/**
 * A body sent as a delimited text that is JSON: read as a table it would be one odd column or an
 * unclosed quote (a walk's JSON as text/csv read "a quoted value is never closed"), so the answer says
 * what to do. Null when the body is no JSON or its type is no delimited text.
 */
export function jsonAsText(type: string, start: Uint8Array | undefined): HttpError | null {
  const media = mediaType(type).type;
  if (!DELIMITED_TYPES.has(media) || media === XLS_TYPE || !startsAsJson(start)) return null;
  return new HttpError(
    415,
    `This body is JSON sent as ${media}: send JSON rows with Content-Type: application/json (a CSV or tab-separated file is sent as it is).`,
  );
}

/** Whether a body starts as a JSON object or array does (`{` or `[` after blanks and a byte order mark; UTF-8 or UTF-16). */
function startsAsJson(start: Uint8Array | undefined): boolean {
  if (start === undefined) return false;
  const utf16 = (start[0] === 0xff && start[1] === 0xfe) || (start[0] === 0xfe && start[1] === 0xff);
  let at = utf16 ? 2 : start[0] === 0xef && start[1] === 0xbb && start[2] === 0xbf ? 3 : 0;
  // UTF-16's other byte of each ASCII character is zero: passed over as a blank.
  while (at < start.length && [0x00, 0x20, 0x09, 0x0a, 0x0d].includes(start[at]!)) at++;
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
