import edtf from 'edtf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysInMonth, toUtcMillis } from './daynum';
import { estimate } from './estimate';
import { isClue } from './clue-rule';
import type { Estimate, EvidenceInput } from './types';

let nextId = 1;
function evidence(fields: Partial<EvidenceInput> & Pick<EvidenceInput, 'kind'>): EvidenceInput {
  return {
    id: nextId++,
    source: 'manual',
    earliest: null,
    latest: null,
    confidence: null,
    reviewStatus: 'accepted',
    summary: '',
    ...fields,
  };
}
const notBefore = (earliest: number, more: Partial<EvidenceInput> = {}) => evidence({ kind: 'bound', earliest, ...more });
const notAfter = (latest: number, more: Partial<EvidenceInput> = {}) => evidence({ kind: 'bound', latest, ...more });
const between = (earliest: number, latest: number, more: Partial<EvidenceInput> = {}) =>
  evidence({ kind: 'bound', earliest, latest, ...more });
const guess = (earliest: number | null, latest: number | null, confidence: number | null, more: Partial<EvidenceInput> = {}) =>
  evidence({ kind: 'estimate', source: 'ai', earliest, latest, confidence, ...more });

describe('estimate: precision of the ends (issue 14 item 2)', () => {
  it('keeps the day of a scan date that falls on the last day of a month', () => {
    const result = estimate([notAfter(20000930, { id: 1, precision: { earliest: null, latest: 'day' }, summary: 'Scanned' })]);
    expect(result.edtf).toBe('../2000-09-30');
    expect(result.dacs).toBe('not after 2000 September 30');
    expect(result.explanation[1]).toContain('not after 2000 September 30');
  });

  it('takes the finest precision among the items that set an end', () => {
    const result = estimate([
      notBefore(19230601, { id: 1, precision: { earliest: 'month', latest: null } }),
      between(19230601, 19251231, { id: 2, precision: { earliest: 'year', latest: 'year' } }),
    ]);
    expect(result.edtf).toBe('1923-06/1925');
    expect(result.dacs).toBe('1923 June–1925 December');
  });

  it('without a stated precision, reads each end at the precision it is aligned to', () => {
    expect(estimate([notAfter(20000930, { id: 1 })]).edtf).toBe('../2000-09');
  });
});

describe('estimate: examples', () => {
  it('is undated without evidence', () => {
    expect(estimate([])).toEqual({
      status: 'undated',
      earliest: null,
      latest: null,
      confidence: null,
      earliestSetBy: [],
      latestSetBy: [],
      conflicts: [],
      edtf: null,
      dacs: null,
      explanation: ['No usable evidence, so the photo is undated.'],
      clueIds: [],
      withClues: null,
    });
  });

  it('is undated when every item is rejected, and says they were ignored', () => {
    const result = estimate([notBefore(19230101, { id: 4, reviewStatus: 'rejected' })]);
    expect(result.status).toBe('undated');
    expect(result.explanation).toContain('Ignored rejected evidence: #4.');
  });

  it('intersects hard bounds and names the evidence that sets each end, ties included', () => {
    const result = estimate([
      notBefore(19230101, { id: 1, summary: 'Film stock introduced 1923' }),
      notBefore(19350101, { id: 2, summary: 'Car model of 1935' }),
      notBefore(19350101, { id: 3, summary: 'Caption reads c. 1935' }),
      notAfter(19421231, { id: 7, summary: 'Studio closed 1942' }),
      notAfter(19501231, { id: 8, summary: 'Scanned from album of 1950' }),
    ]);
    expect(result).toMatchObject({
      status: 'estimated',
      earliest: 19350101,
      latest: 19421231,
      // A bound is a bound: hard bounds alone state no confidence.
      confidence: null,
      earliestSetBy: [2, 3],
      latestSetBy: [7],
      edtf: '1935/1942',
      dacs: '1935–1942',
    });
    expect(result.explanation.join(' ')).toContain('#7 (Studio closed 1942)');
  });

  it.each<[string, EvidenceInput[], Partial<Estimate>]>([
    ['a single exact day', [between(19470612, 19470612)], { edtf: '1947-06-12', dacs: '1947 June 12' }],
    ['an open lower end', [notAfter(18671231)], { earliest: null, latest: 18671231, edtf: '../1867', dacs: 'not after 1867' }],
    ['an open upper end', [notBefore(19230101)], { earliest: 19230101, latest: null, edtf: '1923/..', dacs: 'not before 1923' }],
    ['a soft single year', [guess(19250101, 19251231, 0.6)], { edtf: '1925~', dacs: 'approximately 1925', confidence: 0.6 }],
    ['a soft decade', [guess(18900101, 18991231, 0.5)], { edtf: '1890~/1899~', dacs: 'circa 1890s' }],
    ['a hard decade', [between(18900101, 18991231)], { edtf: '189X', dacs: '1890s' }],
    ['a soft range', [guess(19350101, 19421231, 0.7)], { edtf: '1935~/1942~', dacs: 'circa 1935–1942' }],
    ['a whole month', [between(19470601, 19470630)], { edtf: '1947-06', dacs: '1947 June' }],
  ])('formats %s', (_, items, expected) => {
    expect(estimate(items)).toMatchObject(expected);
  });

  it('flags conflicting bounds with the minimal pairs and gives no date', () => {
    const result = estimate([
      notBefore(19500101, { id: 3 }),
      notAfter(19421231, { id: 7 }),
      notAfter(19601231, { id: 9 }),
      notBefore(19300101, { id: 1 }),
    ]);
    expect(result).toMatchObject({
      status: 'conflict',
      earliest: null,
      latest: null,
      confidence: null,
      edtf: null,
      dacs: null,
      conflicts: [{ evidenceIds: [3, 7], reason: "'not before 1950' (#3) contradicts 'not after 1942' (#7)" }],
    });
  });

  it('lists every minimal conflicting pair', () => {
    const result = estimate([
      notBefore(19500101, { id: 1 }),
      notBefore(19550101, { id: 2 }),
      notAfter(19421231, { id: 3 }),
      notAfter(19451231, { id: 4 }),
    ]);
    expect(result.conflicts.map((c) => c.evidenceIds)).toEqual([
      [1, 3],
      [1, 4],
      [2, 3],
      [2, 4],
    ]);
  });

  it('reports a bound that ends before it starts as a conflict with itself', () => {
    const result = estimate([between(19500101, 19401231, { id: 5 })]);
    expect(result.status).toBe('conflict');
    expect(result.conflicts).toEqual([
      { evidenceIds: [5], reason: "'between 1950 and 1940' (#5) contradicts itself: it starts after it ends" },
    ]);
  });

  it('clips estimates to the bounds and sets aside those wholly outside', () => {
    const result = estimate([
      between(19300101, 19451231, { id: 1 }),
      guess(19400101, 19551231, 0.8, { id: 2, summary: 'AI: 1940-1955' }),
      guess(19600101, 19651231, 0.9, { id: 3, summary: 'AI: 1960s' }),
    ]);
    expect(result).toMatchObject({
      earliest: 19400101,
      latest: 19451231,
      earliestSetBy: [2],
      latestSetBy: [1],
      edtf: '1940~/1945',
      dacs: 'circa 1940–1945',
    });
    expect(result.explanation).toContain('#2 (AI: 1940-1955) was trimmed to fit the hard bounds.');
    expect(result.explanation).toContain('#3 (AI: 1960s) lies wholly outside the hard bounds and was set aside.');
  });

  it('does not let a weak outlier move a confident estimate', () => {
    const result = estimate([guess(19300101, 19391231, 0.9, { id: 1 }), guess(19600101, 19691231, 0.2, { id: 2 })]);
    expect(result).toMatchObject({ earliest: 19300101, latest: 19391231, earliestSetBy: [1], latestSetBy: [1] });
  });

  it('takes the weighted middle of several agreeing estimates', () => {
    const result = estimate([
      guess(19300101, 19501231, 0.5, { id: 1 }),
      guess(19400101, 19451231, 0.5, { id: 2 }),
      guess(19420101, 19481231, 0.5, { id: 3 }),
    ]);
    expect(result).toMatchObject({ earliest: 19400101, latest: 19481231, earliestSetBy: [2], latestSetBy: [3] });
    expect(result.confidence).toBeGreaterThan(0.5);
    expect(result.confidence).toBeLessThan(1);
  });

  it('widens to cover equally weighted estimates that disagree', () => {
    const result = estimate([guess(19300101, 19351231, 0.5, { id: 1 }), guess(19500101, 19551231, 0.5, { id: 2 })]);
    expect(result).toMatchObject({ earliest: 19300101, latest: 19551231 });
  });

  it('needs review while any usable item is pending', () => {
    const result = estimate([
      notBefore(19230101, { id: 1 }),
      guess(19300101, 19391231, 0.6, { id: 2, source: 'ocr', reviewStatus: 'pending' }),
    ]);
    expect(result.status).toBe('needs_review');
    expect(result.explanation).toContain('Awaiting review: #2.');
  });

  it('treats a missing estimate confidence as 0.5', () => {
    expect(estimate([guess(19300101, 19391231, null)]).confidence).toBe(0.5);
  });

  it('leaves out items that say nothing, with a note', () => {
    const result = estimate([evidence({ id: 6, kind: 'bound' }), guess(19391231, 19300101, 0.9, { id: 7 })]);
    expect(result.status).toBe('undated');
    expect(result.explanation).toEqual([
      'No usable evidence, so the photo is undated.',
      '#6 gives no dates and was left out.',
      '#7 is an estimate that ends before it starts and was left out.',
    ]);
  });
});

// ---------------------------------------------------------------- properties

// Biased towards the first and last days of months and years and towards a
// few nearby years, where formatting and tie-breaking have their edge cases.
const dayArb = fc
  .record({
    year: fc.oneof(fc.integer({ min: 1940, max: 1945 }), fc.integer({ min: 1830, max: 2020 })),
    month: fc.oneof(fc.constantFrom(1, 12), fc.integer({ min: 1, max: 12 })),
    day: fc.oneof(fc.constantFrom(1, 31), fc.integer({ min: 1, max: 31 })),
  })
  .map(({ year, month, day }) => year * 10_000 + month * 100 + Math.min(day, daysInMonth(year, month)));

const intervalArb = fc
  .tuple(fc.option(dayArb, { nil: null }), fc.option(dayArb, { nil: null }))
  .map(([a, b]) => (a !== null && b !== null && a > b ? ([b, a] as const) : ([a, b] as const)));

const itemArb = (kind: fc.Arbitrary<EvidenceInput['kind']>, status: fc.Arbitrary<EvidenceInput['reviewStatus']>) =>
  fc.record({
    kind,
    interval: intervalArb,
    confidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
    reviewStatus: status,
    source: fc.constantFrom<EvidenceInput['source']>('exif', 'ocr', 'ai', 'manual', 'duplicate'),
  });

type ItemShape = {
  kind: EvidenceInput['kind'];
  interval: readonly [number | null, number | null];
  confidence: number | null;
  reviewStatus: EvidenceInput['reviewStatus'];
  source: EvidenceInput['source'];
};

function withIds(shapes: ItemShape[], firstId = 1): EvidenceInput[] {
  return shapes.map((shape, i) => ({
    id: firstId + i,
    source: shape.source,
    kind: shape.kind,
    earliest: shape.interval[0],
    latest: shape.interval[1],
    confidence: shape.confidence,
    reviewStatus: shape.reviewStatus,
    summary: `item ${firstId + i}`,
  }));
}

const anyKind = fc.constantFrom<EvidenceInput['kind']>('bound', 'estimate');
const anyStatus = fc.constantFrom<EvidenceInput['reviewStatus']>('pending', 'accepted', 'rejected');
const evidenceArb = fc.array(itemArb(anyKind, anyStatus), { maxLength: 8 }).map((shapes) => withIds(shapes));

function boundsCanAllHold(items: EvidenceInput[]): boolean {
  // Clues never date a photo, so they cannot put its bounds in conflict either.
  const bounds = items.filter((i) => i.kind === 'bound' && i.reviewStatus !== 'rejected' && !isClue(i));
  const lowers = bounds.flatMap((b) => (b.earliest === null ? [] : [b.earliest]));
  const uppers = bounds.flatMap((b) => (b.latest === null ? [] : [b.latest]));
  return lowers.length === 0 || uppers.length === 0 || Math.max(...lowers) <= Math.min(...uppers);
}

const withoutIgnoredLine = (result: Estimate) => ({
  ...result,
  explanation: result.explanation.filter((line) => !line.startsWith('Ignored rejected evidence')),
});

describe('estimate: properties', () => {
  it('(a) with consistent accepted bounds, the estimate lies inside every bound', () => {
    const arb = fc
      .tuple(
        fc.array(itemArb(fc.constant('bound'), fc.constant('accepted')), { minLength: 1, maxLength: 5 }),
        fc.array(itemArb(fc.constant('estimate'), fc.constantFrom('accepted', 'pending')), { maxLength: 5 }),
      )
      .map(([bounds, estimates]) => withIds([...bounds, ...estimates]))
      .filter(boundsCanAllHold);
    fc.assert(
      fc.property(arb, (items) => {
        const result = estimate(items);
        expect(result.status).not.toBe('conflict');
        for (const bound of items.filter((i) => i.kind === 'bound')) {
          if (bound.earliest !== null) expect(result.earliest).not.toBeNull();
          if (bound.earliest !== null) expect(result.earliest!).toBeGreaterThanOrEqual(bound.earliest);
          if (bound.latest !== null) expect(result.latest).not.toBeNull();
          if (bound.latest !== null) expect(result.latest!).toBeLessThanOrEqual(bound.latest);
        }
        if (result.earliest !== null && result.latest !== null) expect(result.earliest).toBeLessThanOrEqual(result.latest);
      }),
    );
  });

  it("(b) status is 'conflict' exactly when the bounds cannot all hold", () => {
    fc.assert(
      fc.property(evidenceArb, (items) => {
        expect(estimate(items).status === 'conflict').toBe(!boundsCanAllHold(items));
      }),
    );
  });

  it('(c) adding a rejected item changes nothing but the line that lists it as ignored', () => {
    fc.assert(
      fc.property(evidenceArb, itemArb(anyKind, fc.constant('rejected')), (items, extra) => {
        const [rejected] = withIds([extra], items.length + 1);
        expect(withoutIgnoredLine(estimate([...items, rejected]))).toEqual(withoutIgnoredLine(estimate(items)));
      }),
    );
  });

  it('(d) permuting the evidence never changes the output', () => {
    const arb = evidenceArb.chain((items) =>
      fc.tuple(fc.constant(items), fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length })),
    );
    fc.assert(
      fc.property(arb, ([items, permuted]) => {
        expect(estimate(permuted)).toEqual(estimate(items));
      }),
    );
  });

  it("(e) estimate-only input never yields 'conflict'", () => {
    const arb = fc.array(itemArb(fc.constant('estimate'), anyStatus), { maxLength: 8 }).map((shapes) => withIds(shapes));
    fc.assert(
      fc.property(arb, (items) => {
        expect(estimate(items).status).not.toBe('conflict');
      }),
    );
  });

  it('(f) the EDTF string covers exactly [earliest, latest] and confidence stays within 0..1', () => {
    fc.assert(
      fc.property(evidenceArb, (items) => {
        const result = estimate(items);
        if (result.edtf === null) return;
        const parsed = edtf(result.edtf);
        expect(parsed.min).toBe(result.earliest === null ? -Infinity : toUtcMillis(result.earliest));
        expect(parsed.max).toBe(result.latest === null ? Infinity : toUtcMillis(result.latest) + 86_400_000 - 1);
        if (result.confidence === null) return;
        expect(result.confidence).toBeGreaterThanOrEqual(0);
        expect(result.confidence).toBeLessThanOrEqual(1);
      }),
    );
  });
});
