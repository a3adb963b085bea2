/**
 * CSV that opens correctly in Excel and LibreOffice: UTF-8 with a byte-order mark (without it
 * Excel reads the file as the system's code page and mangles "Łódź"), CRLF line ends, every text
 * cell quoted with doubled quotes (RFC 4180), and a guard against formula injection: a text cell
 * starting with = + - @ (or a tab or carriage return) is prefixed with an apostrophe, so a note
 * like "=HYPERLINK(…)" is shown as text, never run (OWASP "CSV injection").
 */
export const CSV_BOM = '\ufeff';
export const CSV_EOL = '\r\n';

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${guarded.replaceAll('"', '""')}"`;
}

export function csvRow(cells: readonly (string | number | boolean | null | undefined)[]): string {
  return cells.map(csvCell).join(',') + CSV_EOL;
}
