import { decimalText } from '../../../server/locations/decimal.js';
import { hoursText, type Hours } from '../../../server/locations/hours.js';

/**
 * A stored value as one cell of text, the form the import reads back: labels joined with ", ",
 * hours as one line ("Mon 09:00-17:00; ...; Sun closed", server/locations/hours.ts), numbers as
 * decimals (never "1e-7": decimalText), nothing for null. The export writes these cells and the preview's diff shows them.
 */
export function cellText(field: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (field === 'hours' && typeof value === 'object') return hoursText(value as Hours);
  if (typeof value === 'object') return JSON.stringify(value);
  return typeof value === 'number' ? decimalText(value) : String(value);
}
