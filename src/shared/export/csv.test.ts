import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv';

describe('CSV cells', () => {
  it('quotes text, doubles quotes and keeps commas and line breaks inside the cell', () => {
    expect(csvCell('Grandma, "Joe" & the dog\nXmas')).toBe('"Grandma, ""Joe"" & the dog\nXmas"');
    expect(csvCell('Łódź')).toBe('"Łódź"');
    expect(csvRow(['a', 1, null, 0.85])).toBe('"a",1,,0.85\r\n');
  });

  it('never lets a cell start a formula', () => {
    for (const bad of ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1']) {
      expect(csvCell(bad).startsWith(`"'`)).toBe(true);
    }
    expect(csvCell('1935/1942')).toBe('"1935/1942"');
    expect(csvCell('../1867')).toBe('"../1867"');
  });
});
