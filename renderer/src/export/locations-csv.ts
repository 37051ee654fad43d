import type { LocationRow } from '../api/types.js';

const EXPORT_COLUMNS = [
  'name',
  'address',
  'city',
  'state',
  'zip',
  'country',
  'health_score',
  'health_status',
  'created_at',
] as const;

/** A file name from the client's name that every operating system accepts. */
export function exportFileName(clientName: string, date = new Date()): string {
  const safe = clientName.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'client';
  return `${safe}-locations-${date.toISOString().slice(0, 10)}.csv`;
}

/**
 * Saves rows as a CSV download. papaparse loads only when someone exports; values that a spreadsheet
 * would run as a formula (=, +, -, @) are escaped (OWASP "CSV Injection").
 */
export async function exportLocations(rows: readonly LocationRow[], clientName: string): Promise<void> {
  const { default: Papa } = await import('papaparse');
  const csv = Papa.unparse(
    { fields: [...EXPORT_COLUMNS], data: rows.map((row) => EXPORT_COLUMNS.map((column) => row[column] ?? '')) },
    { escapeFormulae: true },
  );
  // A byte order mark makes Excel read the file as UTF-8.
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = exportFileName(clientName);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
