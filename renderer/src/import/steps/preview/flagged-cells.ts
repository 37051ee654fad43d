import type { RowField } from '../../../../../server/locations/schemas.js';
import { READ_INTO } from '../../header-mapping.js';
import type { GridRow } from '../../protocol.js';

/**
 * The problem a row's cell of `field` is flagged with, to be typed over: the server's problem with the
 * field, or with the field it is read into (a Closed that disagrees with the Status, or says neither yes
 * nor no, is the status's problem, and either cell can fix it).
 */
export function problemWith(errors: GridRow['errors'], field: RowField): string | undefined {
  const into = READ_INTO[field];
  return errors.find((error) => error.field === field || (into !== undefined && error.field === into))?.message;
}
