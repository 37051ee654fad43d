// The export's formula escaping (OWASP "CSV Injection"): a quote before =, +, -, @, tab or CR.
const ESCAPED_FORMULA = /^'(?=\s*[=+\-@\t\r])/;

/**
 * A cell's value with the export's formula escaping undone, so that an exported phone "'+12175550142"
 * or longitude "'-89.65" is read back as it was stored. The import never evaluates a value.
 */
export function cellValue(cell: string | undefined): string {
  if (cell === undefined) return '';
  // Most cells do not start with a quote: no pattern to run for them.
  return cell.charCodeAt(0) === 0x27 ? cell.replace(ESCAPED_FORMULA, '') : cell;
}
