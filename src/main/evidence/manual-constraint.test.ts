import { describe, expect, it } from 'vitest';
import { manualConstraintSchema } from '../../shared/contract';
import { estimate, decodePrecision } from '../../shared/dating';
import { manualEvidence } from './manual-constraint';

const parse = (c: unknown) => manualConstraintSchema.parse(c);

/** The constraint as the estimate reads it once accepted. */
function asEstimate(c: unknown) {
  const e = manualEvidence(parse(c), '');
  return estimate([
    {
      id: 1,
      source: 'manual',
      kind: e.kind,
      earliest: e.earliest,
      latest: e.latest,
      confidence: e.confidence,
      precision: decodePrecision(e.precision),
      reviewStatus: 'accepted',
      summary: e.summary,
    },
  ]);
}

describe('manual constraints finer than a year (issue 14 item 9)', () => {
  it('"not before June 1923" starts on 1 June and keeps month precision', () => {
    const e = manualEvidence(parse({ type: 'not_before', year: 1923, month: 6 }), 'a June wedding');
    expect(e).toMatchObject({ kind: 'bound', earliest: 19230601, latest: null, precision: 'month' });
    expect(e.summary).toBe('Not before 1923 June — a June wedding');
    expect(asEstimate({ type: 'not_before', year: 1923, month: 6 })).toMatchObject({
      edtf: '1923-06/..',
      dacs: 'not before 1923 June',
    });
  });

  it('"not after June 1923" ends on 30 June', () => {
    const e = manualEvidence(parse({ type: 'not_after', year: 1923, month: 6 }), '');
    expect(e).toMatchObject({ earliest: null, latest: 19230630, precision: 'month' });
  });

  it('"between 3 and 10 May 1945" is a day-precise bound', () => {
    const c = { type: 'between', from: { year: 1945, month: 5, day: 3 }, to: { year: 1945, month: 5, day: 10 } };
    expect(manualEvidence(parse(c), '')).toMatchObject({ kind: 'bound', earliest: 19450503, latest: 19450510, precision: 'day' });
    expect(asEstimate(c)).toMatchObject({ edtf: '1945-05-03/1945-05-10', dacs: '1945 May 3–10' });
  });

  it('a day on the last of a month keeps its day ("not after 30 September 2000")', () => {
    expect(asEstimate({ type: 'not_after', year: 2000, month: 9, day: 30 })).toMatchObject({
      edtf: '../2000-09-30',
      dacs: 'not after 2000 September 30',
    });
  });

  it('mixes precisions per end and stores them per end', () => {
    const c = { type: 'between', from: { year: 1923, month: 6 }, to: 1925 };
    expect(manualEvidence(parse(c), '')).toMatchObject({ earliest: 19230601, latest: 19251231, precision: 'month/year' });
  });

  it('still reads whole years, as before', () => {
    expect(manualEvidence(parse({ type: 'between', from: 1935, to: 1942 }), '')).toMatchObject({
      earliest: 19350101,
      latest: 19421231,
      precision: 'year',
      summary: 'Between 1935 and 1942',
    });
  });

  it.each([
    [{ type: 'not_before', year: 1923, day: 4 }, 'a day needs its month'],
    [{ type: 'not_before', year: 1923, month: 2, day: 30 }, 'not a date'],
    [{ type: 'not_after', year: 1923, month: 13 }, ''],
    [
      { type: 'between', from: { year: 1945, month: 5, day: 10 }, to: { year: 1945, month: 5, day: 3 } },
      'The end of the range is before its start',
    ],
  ])('rejects %j', (c, message) => {
    const r = manualConstraintSchema.safeParse(c);
    expect(r.success).toBe(false);
    if (!r.success && message) expect(r.error.issues.map((i) => i.message).join(' ')).toContain(message);
  });
});
