import { describe, expect, it } from 'vitest';
import { extractDates } from './extract-dates';

const referenceYear = 2025;

// Issue 14 item 3: text that dates the object's use (a postmark, processing, printing, receipt,
// a copyright line, an accession or a gift) says when the print existed, not when it was taken.
describe('dates of the object’s use', () => {
  it.each<[string, string, string]>([
    ['Postmarked PARIS 12-6-23', 'postmark', 'Postmarked'],
    ['POSTMARK BROOKLYN N.Y. JUN 12 1947 3 PM', 'postmark', 'POSTMARK'],
    ['Postmark 12 JUN 47 HAMBURG', 'postmark', 'Postmark'],
    ['developed 12/25/1952', 'processing', 'developed'],
    ['Printed 15/03/52', 'printing', 'Printed'],
    ["Rec'd Mar 3 '48", 'receipt', "Rec'd"],
    ['Received with thanks, June 1950', 'receipt', 'Received'],
    ['© 1952 Keystone View Co.', 'copyright', '©'],
    ['Copyright 1938 by the Chicago Tribune', 'copyright', 'Copyright'],
    ['Accessioned 1985', 'accession', 'Accessioned'],
    ['Gift of Mrs. Ida Hartley, 1972', 'gift', 'Gift of'],
    ['Scanned 2019-05-04', 'digitisation', 'Scanned'],
    ['JUN 12 1947 (postmark)', 'postmark', 'postmark'],
  ])('%j is a date of use (%s)', (text, cue, word) => {
    const [found] = extractDates(text, { referenceYear });
    expect(found.use).toEqual({ cue, word });
    expect(found.reason).toMatch(/no later/);
  });

  it.each([
    'Grandma and Joe, Xmas 1942',
    'Wedding day, June 12, 1947',
    'c. 1935 – Ford dealership',
    'Kodak Velox paper, 1940s',
    'Mother on the porch, 1947',
  ])('%j dates the picture', (text) => {
    const [found] = extractDates(text, { referenceYear });
    expect(found.use ?? null).toBeNull();
  });

  it('a cue belongs to the date after it, not to an earlier date on the line', () => {
    const found = extractDates('Taken 1938, printed 1952', { referenceYear });
    expect(found.map((f) => f.use?.cue ?? null)).toEqual([null, 'printing']);
  });

  it('a cue does not reach past another date', () => {
    const found = extractDates('Printed 1952 from a 1938 negative', { referenceYear });
    expect(found.map((f) => f.use?.cue ?? null)).toEqual(['printing', null]);
  });

  it('a cue on an earlier line does not carry over', () => {
    const found = extractDates('Postmarked in Paris\nThe children, 1923', { referenceYear });
    expect(found[0].use ?? null).toBeNull();
  });
});
