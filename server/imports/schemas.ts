import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../http/schemas.js';

/** The media types the upload reads besides JSON (README: "Import a CSV or Excel file"). */
export const CSV_TYPE = 'text/csv';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const XLS_TYPE = 'application/vnd.ms-excel';
/** Excel's "Unicode Text" and "Text (Tab delimited)" as sent by scripts and some upload tools: read as a CSV. */
export const TSV_TYPE = 'text/tab-separated-values';
export const TEXT_TYPE = 'text/plain';

/** The query of an upload of a CSV or .xlsx file, beside the JSON upload's. */
export const TableQuery = {
  clientId: Type.Optional(
    Type.String({
      ...Uuid,
      description: 'The client the locations are for (a CSV or .xlsx body; JSON names it inside)',
    }),
  ),
  sheet: Type.Optional(Type.String({ maxLength: 200, description: 'The .xlsx sheet to read (default: the first)' })),
  mapping: Type.Optional(
    Type.String({
      ...Uuid,
      description:
        'A saved mapping (GET /api/mappings): a file is read with it instead of matching; JSON rows say it mapped ' +
        'them. Either way a real import marks it used; 404 when it is not for this client',
    }),
  ),
  placeholders: Type.Optional(
    Type.Union([Type.Literal('default'), Type.Literal('none')], {
      description:
        'none: read no placeholder (N/A, TBD … stay values): the caller blanked the ones of its own list. ' +
        'default: the list of README "Location fields" (or a saved mapping\'s)',
    }),
  ),
  keep_flagged: Type.Optional(
    Type.Boolean({ description: 'Import the rows flagged as not locations (repeated headers, totals) too' }),
  ),
};

export const MatchedBy = Type.Union([
  Type.Literal('name'),
  Type.Literal('synonym'),
  Type.Literal('fuzzy'),
  Type.Literal('mapping'),
]);

export const ColumnReport = Type.Object({
  header: Type.String(),
  field: Type.Union([Type.String(), Type.Null()], {
    description:
      'The field the column was read into (street_number and suite join address, hours_mon.. hours; closed is read into status); null: left out',
  }),
  matched_by: Type.Union([MatchedBy, Type.Null()], { description: 'How the header was matched: null when not' }),
  score: Type.Number({ description: '1 for a name or synonym; the similarity of a near miss' }),
});
export type ColumnReport = Static<typeof ColumnReport>;

export const LeftOutRow = Type.Object({
  line: Type.Integer({ description: "The row's number in the sheet (the header is row 1)" }),
  reason: Type.String({
    description: 'repeated header row, totals or summary row, only a name, nothing else, the template’s example row',
  }),
});
export type LeftOutRow = Static<typeof LeftOutRow>;

/** What the answer to a CSV or .xlsx upload adds. */
export const TableAnswer = {
  sheet: Type.Optional(
    Type.String({ description: "An .xlsx upload: the sheet read (?sheet=, else the workbook's table)" }),
  ),
  columns: Type.Optional(Type.Array(ColumnReport, { description: 'A CSV or .xlsx upload: each column and its field' })),
  left_out: Type.Optional(
    Type.Array(LeftOutRow, { description: 'A CSV or .xlsx upload: rows that are not locations, left out' }),
  ),
};
