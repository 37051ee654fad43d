import readXlsxFile from 'read-excel-file/node';
import type { CellsOrRefusal } from './csv-text.js';

/**
 * An .xlsx body's sheet as text cells (README: "Import a CSV or Excel file"), with read-excel-file
 * (maintained, MIT, fflate and saxen underneath; chosen over SheetJS, whose npm build is stuck with open
 * advisories): text cells as they are (leading zeros kept), numbers as the text the file stores (a
 * 20-digit number is never rounded), dates as ISO text, TRUE/FALSE as those words. Async (the library
 * unzips with promises): the writer thread reads it before the import's synchronous transaction.
 */
export async function xlsxCells(bytes: Uint8Array, sheet: string | undefined): Promise<CellsOrRefusal> {
  let sheets: { sheet: string; data: unknown[][] }[];
  try {
    sheets = await readXlsxFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      parseNumber: (text: string) => text,
    });
  } catch {
    return {
      statusCode: 400,
      message: 'The body is not an .xlsx workbook that can be read. Save it again from Excel as .xlsx, or as CSV.',
    };
  }
  const chosen = sheet === undefined ? sheets[0] : sheets.find((each) => each.sheet === sheet);
  if (chosen === undefined) {
    const names = sheets.map((each) => `"${each.sheet}"`).join(', ');
    return {
      statusCode: 400,
      message: `The workbook has no sheet named "${sheet ?? ''}"; its sheets are ${names}. Name one with ?sheet=`,
    };
  }
  return { cells: chosen.data.map((row) => row.map(cellText)) };
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}
