/** Columns for a person at a terminal: a header, then one line a row, padded to the widest cell. */
export function printTable(header: string[], rows: string[][]): void {
  if (rows.length === 0) return console.log('(none)');
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows]) {
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    );
  }
}
