// The photo screen's reading of a note (src/main/dating/caption-dates.ts): each date with its EDTF,
// precision, DACS wording and convention, and the constraint "Use as a constraint" adds — which
// the contract's own schema must accept.
import { describe, expect, it } from 'vitest';
import { captionDates } from '../../src/main/dating/caption-dates';
import { manualConstraintSchema } from '../../src/shared/contract';
import { captionDateSchema } from '../../src/shared/caption-dates';

describe('captionDates', () => {
  it('reads a French caption to the day, as a constraint between that day and itself', () => {
    const [date] = captionDates('Mariage de Jeanne, le 4 août 1906, Lyon', 'undecided');
    expect(date).toMatchObject({ text: '4 août 1906', edtf: '1906-08-04', precision: 'day', dacs: '1906 August 4' });
    expect(date.constraint).toEqual({
      type: 'between',
      from: { year: 1906, month: 8, day: 4 },
      to: { year: 1906, month: 8, day: 4 },
    });
    expect(captionDateSchema.parse(date)).toEqual(date);
  });

  it('keeps each end at its own precision, and an open end as not after', () => {
    const [range] = captionDates('Juli 1906 - 1919', 'undecided');
    expect(range).toMatchObject({ edtf: '1906-07/1919', precision: 'month/year' });
    expect(range.constraint).toEqual({ type: 'between', from: { year: 1906, month: 7 }, to: { year: 1919 } });
    const [open] = captionDates('- 1906', 'undecided');
    expect(open).toMatchObject({ edtf: '../1906', precision: 'open/year', dacs: 'not after 1906' });
    expect(open.constraint).toEqual({ type: 'not_after', year: 1906 });
  });

  it('names the season convention and gives a season its days', () => {
    const [season] = captionDates('im Sommer 1912', 'undecided');
    expect(season).toMatchObject({ edtf: '1912-22', precision: 'season' });
    expect(season.convention).toMatch(/meteorological/);
    expect(season.constraint).toEqual({
      type: 'between',
      from: { year: 1912, month: 6, day: 1 },
      to: { year: 1912, month: 8, day: 31 },
    });
  });

  it('reads a numeric date by the library order and offers the other reading', () => {
    const [date] = captionDates('Printed 7/4/1906', 'day-first');
    expect(date).toMatchObject({ edtf: '1906-04-07' });
    expect(date.convention).toMatch(/day first/);
    expect(date.otherReading).toMatchObject({ edtf: '1906-07-04', reading: 'month first: 4 July 1906' });
    expect(manualConstraintSchema.parse(date.otherReading!.constraint)).toEqual({
      type: 'between',
      from: { year: 1906, month: 7, day: 4 },
      to: { year: 1906, month: 7, day: 4 },
    });
  });

  it('offers the other reading of a bounded numeric date as the same bound', () => {
    const [date] = captionDates('Printed not after 7/4/1906', 'day-first');
    expect(date).toMatchObject({ edtf: '../1906-04-07', dacs: 'not after 1906 April 7' });
    expect(date.constraint).toEqual({ type: 'not_after', year: 1906, month: 4, day: 7 });
    expect(date.otherReading).toMatchObject({ edtf: '../1906-07-04', dacs: 'not after 1906 July 4' });
    expect(manualConstraintSchema.parse(date.otherReading!.constraint)).toEqual({
      type: 'not_after',
      year: 1906,
      month: 7,
      day: 4,
    });
    expect(captionDateSchema.parse(date)).toEqual(date);
  });

  it('reads nothing in a note without a date', () => {
    expect(captionDates('Route 66, No. 1950, tel. 555-1906', 'undecided')).toEqual([]);
  });
});
