/**
 * The dashboard's column matching: the rules live in server/imports/ (shared with the server's text/csv
 * and xlsx import); this file keeps the names the dashboard has always imported.
 */
export {
  DAY_HOURS,
  FIELD_LABELS,
  feedsAddress,
  FIELDS,
  fieldOfTarget,
  READ_INTO,
  ROW_FIELD_LABELS,
  TARGETS,
  type ColumnMapping,
  type ColumnTarget,
  type DayHoursTarget,
  type ImportTarget,
} from '../../../server/imports/targets.js';
export {
  fieldOfHeader,
  headerKey,
  isDayHours,
  isKnownButNotImported,
  mapHeaders,
  matchHeader,
  matchHeaders,
  nameColumnOf,
  remapColumn,
  type ColumnMatch,
  type MatchedBy,
} from '../../../server/imports/columns.js';
