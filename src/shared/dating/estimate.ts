// The date estimate of one photo from all of its evidence. Pure: the same
// evidence, in any order, always gives the same estimate.
//
// 1. Rejected evidence is ignored (only listed as ignored).
// 2. Hard bounds intersect into a window (bound-window.ts). If they cannot
//    all hold, the status is 'conflict' and no date is given: earliest,
//    latest, confidence, EDTF and DACS are null, because any date shown would
//    break at least one hard bound. Sorting puts such photos with the undated
//    ones until someone rejects or corrects a conflicting item.
// 3. Soft estimates are clipped to the window and combined by
//    confidence-weighted medians of their ends (combine-estimates.ts).
// 4. Status: 'undated' without usable evidence, 'conflict' as above,
//    'needs_review' while any usable item is pending, else 'estimated'.
// 5. A clue is not a date (clue-rule.ts): unaccepted visual analysis and unreviewed findings
//    below DATE_CONFIDENCE_FLOOR are listed and explained, but steps 2-4 run without them. A
//    photo with only clues is undated; `withClues` says what the clues would make of it.
// 6. Copies count once (copies-count-once.ts): a finding carried from a copy that repeats one
//    already counted is not counted again.
// 7. A bound is a bound: an estimate set by hard bounds alone has no confidence (null).
import type { Estimate, EvidenceInput, Precision } from './types';
import { finest } from './precision';
import { isDayNum } from './daynum';
import { intersectBounds, type BoundWindow } from './bound-window';
import { clipToWindow, type ClippedEstimate, combineEstimates, confidenceOf } from './combine-estimates';
import { cite, citeAll, listIds } from './evidence-phrases';
import { describeEnd, describeStart, toDacs, toEdtf } from './format';
import { CLUE_RULE, clueReason } from './clue-rule';
import { weakClueTag, yearsOfDays } from './clue-words';
import { countCopiesOnce } from './copies-count-once';

interface Screened {
  usable: EvidenceInput[];
  notes: string[];
}

// Evidence that cannot say anything is left out with a note, not thrown at:
// the rows come from OCR, AI and people, and one bad row must not hide the rest.
function screen(counted: EvidenceInput[]): Screened {
  const usable: EvidenceInput[] = [];
  const notes: string[] = [];
  for (const item of counted) {
    const ends = [item.earliest, item.latest].filter((end) => end !== null);
    if (ends.length === 0) {
      notes.push(`${cite(item)} gives no dates and was left out.`);
    } else if (!ends.every(isDayNum)) {
      notes.push(`${cite(item)} has a date that is not a valid YYYYMMDD day and was left out.`);
    } else if (item.kind === 'estimate' && item.earliest !== null && item.latest !== null && item.earliest > item.latest) {
      // An inverted bound is kept: it shows up as a conflict with itself.
      notes.push(`${cite(item)} is an estimate that ends before it starts and was left out.`);
    } else {
      usable.push(item);
    }
  }
  return { usable, notes };
}

function emptyEstimate(status: Estimate['status'], explanation: string[]): Omit<Estimate, 'clueIds' | 'withClues'> {
  return {
    status,
    earliest: null,
    latest: null,
    confidence: null,
    earliestSetBy: [],
    latestSetBy: [],
    conflicts: [],
    edtf: null,
    dacs: null,
    explanation,
  };
}

interface ResolvedEnd {
  value: number | null;
  setBy: number[];
  /** Set by soft estimates rather than hard bounds. */
  approximate: boolean;
  /** The finest precision its setters were stated with: the end is never shown coarser. */
  precision: Precision | null;
}

type End = 'earliest' | 'latest';

// An end equal to the window's end is fixed by the bounds (estimates were
// clipped to it); otherwise the estimates that produced it set it.
function resolveEnd(
  end: End,
  window: BoundWindow,
  value: number | null,
  estimateSetBy: number[],
  byId: Map<number, EvidenceInput>,
): ResolvedEnd {
  if (value === null) return { value, setBy: [], approximate: false, precision: null };
  if (value === window[end]) return { value, ...windowEnd(end, window) };
  return {
    value,
    setBy: estimateSetBy,
    approximate: true,
    precision: finest(estimateSetBy.map((id) => byId.get(id)!.precision?.[end])),
  };
}

function windowEnd(end: End, window: BoundWindow): Omit<ResolvedEnd, 'value'> {
  const setBy = end === 'earliest' ? window.earliestSetBy : window.latestSetBy;
  return { setBy, approximate: false, precision: window.precision[end] };
}

function describeWindowEnds(window: BoundWindow, byId: Map<number, EvidenceInput>): string[] {
  const cited = (ids: number[]) => citeAll(ids.map((id) => byId.get(id)!));
  if (window.earliest === null && window.latest === null) return ['There are no hard bounds.'];
  return [
    window.earliest === null
      ? 'No hard bound limits the earliest date.'
      : `Hard bounds: not before ${describeStart(window.earliest, window.precision.earliest)}, set by ${cited(window.earliestSetBy)}.`,
    window.latest === null
      ? 'No hard bound limits the latest date.'
      : `Hard bounds: not after ${describeEnd(window.latest, window.precision.latest)}, set by ${cited(window.latestSetBy)}.`,
  ];
}

export function estimate(evidence: EvidenceInput[]): Estimate {
  const sorted = [...evidence].sort((a, b) => a.id - b.id);
  const byId = new Map(sorted.map((item) => [item.id, item]));
  const rejected = sorted.filter((item) => item.reviewStatus === 'rejected');
  // Kept last, so that adding a rejected item changes nothing but this line.
  const ignored = rejected.length ? [`Ignored rejected evidence: ${listIds(rejected.map((item) => item.id))}.`] : [];

  const { usable, notes: leftOut } = screen(sorted.filter((item) => item.reviewStatus !== 'rejected'));
  // Each item's clue reason once: the split and the sentences both need it.
  const clues: { item: EvidenceInput; reason: string }[] = [];
  const dates: EvidenceInput[] = [];
  for (const item of usable) {
    const reason = clueReason(item);
    if (reason === null) dates.push(item);
    else clues.push({ item, reason });
  }
  const clueIds = clues.map(({ item }) => item.id);
  const result = fromDates(dates, byId, { lines: describeClues(clues, dates.length > 0), ids: clueIds }, [
    ...leftOut,
    ...ignored,
  ]);
  if (clues.length === 0) return { ...result, clueIds: [], withClues: null };
  // What the clues would say matters only where they are all there is (and costs a second pass,
  // which a rebuild of a large library would pay for every dated photo with a clue).
  if (dates.length > 0) return { ...result, clueIds, withClues: null };
  // Only its dates are kept: the second pass writes no sentences.
  const counted = fromDates(usable, byId, { lines: [], ids: [] }, [], false);
  const withClues =
    counted.earliest === null && counted.latest === null
      ? null
      : {
          earliest: counted.earliest,
          latest: counted.latest,
          confidence: counted.confidence,
          edtf: counted.edtf,
          dacs: counted.dacs,
        };
  return { ...result, clueIds, withClues };
}

type DatedEstimate = Omit<Estimate, 'clueIds' | 'withClues'>;

function describeClues(clues: { item: EvidenceInput; reason: string }[], dated: boolean): string[] {
  if (clues.length === 0) return [];
  const listed = clues.map(({ item, reason }) => `${cite(item)}, ${weakClueTag(yearsOfDays(item))}: ${reason}`).join('; ');
  const heading = dated ? 'Set aside as clues, not dates' : 'Only clues, no finding, so the photo is undated';
  return [`${heading}: ${listed}.`, CLUE_RULE];
}

/**
 * The estimate from the findings that count as dates. `clues`: what was set aside as a clue (its
 * sentences, and its ids: clues wait for review too, so a dated photo with clues needs review);
 * `tail` (left out, ignored) goes last. `explain`: false when only the dates are wanted (what the
 * clues alone would say), so no sentence is written.
 */
function fromDates(
  usable: EvidenceInput[],
  byId: Map<number, EvidenceInput>,
  clues: { lines: string[]; ids: number[] },
  tail: string[],
  explain = true,
): DatedEstimate {
  const clueLines = clues.lines;
  if (usable.length === 0) {
    const opening = clueLines.length ? [] : ['No usable evidence, so the photo is undated.'];
    return emptyEstimate('undated', [...opening, ...clueLines, ...tail]);
  }

  // `usable` is in id order; only the clues' ids need merging in.
  const pendingHere = usable.filter((item) => item.reviewStatus === 'pending').map((item) => item.id);
  const pending = clues.ids.length ? [...pendingHere, ...clues.ids].sort((a, b) => a - b) : pendingHere;
  const awaiting = pending.length && explain ? [`Awaiting review: ${listIds(pending)}.`] : [];
  const { counted, repeats } = countCopiesOnce(usable);
  const countedOnce = (explain ? repeats : []).map(
    ({ item, sameAs }) => `${cite(item)} repeats #${sameAs.id} from a copy of this photograph and counts once, as #${sameAs.id}.`,
  );
  const window = intersectBounds(counted.filter((item) => item.kind === 'bound'));

  if (window.conflicts.length > 0) {
    return {
      ...emptyEstimate('conflict', [
        ...window.conflicts.map((conflict) => `Conflict: ${conflict.reason}.`),
        'No date satisfies every hard bound, so none is given; reject or correct one of the conflicting items.',
        ...clueLines,
        ...awaiting,
        ...tail,
      ]),
      conflicts: window.conflicts,
    };
  }

  const explanation = explain ? describeWindowEnds(window, byId) : [];
  const clipped: ClippedEstimate[] = [];
  for (const item of counted.filter((i) => i.kind === 'estimate')) {
    const inside = clipToWindow(item, window);
    if (!inside) {
      if (explain) explanation.push(`${cite(item)} lies wholly outside the hard bounds and was set aside.`);
      continue;
    }
    if (explain && (inside.earliest !== item.earliest || inside.latest !== item.latest)) {
      explanation.push(`${cite(item)} was trimmed to fit the hard bounds.`);
    }
    clipped.push({ id: item.id, ...inside, confidence: confidenceOf(item) });
  }

  let earliest: ResolvedEnd;
  let latest: ResolvedEnd;
  // A bound is a bound: an estimate set by hard bounds alone states no confidence.
  let confidence: number | null = null;
  let combinedCount = 0;
  if (clipped.length === 0) {
    earliest = { value: window.earliest, ...windowEnd('earliest', window) };
    latest = { value: window.latest, ...windowEnd('latest', window) };
  } else {
    const combined = combineEstimates(clipped);
    earliest = resolveEnd('earliest', window, combined.earliest, combined.earliestSetBy, byId);
    latest = resolveEnd('latest', window, combined.latest, combined.latestSetBy, byId);
    if (earliest.approximate || latest.approximate) confidence = combined.confidence;
    combinedCount = clipped.length;
  }

  const approximate = { earliest: earliest.approximate, latest: latest.approximate };
  const format = { approximate, precision: { earliest: earliest.precision, latest: latest.precision } };
  const dacs = toDacs(earliest.value, latest.value, format);
  if (combinedCount > 0 && explain) explanation.push(...describeCombination(combinedCount, earliest, latest, dacs, byId));
  return {
    status: pending.length ? 'needs_review' : 'estimated',
    earliest: earliest.value,
    latest: latest.value,
    confidence,
    earliestSetBy: earliest.setBy,
    latestSetBy: latest.setBy,
    conflicts: [],
    edtf: toEdtf(earliest.value, latest.value, format),
    dacs,
    explanation: [...explanation, ...countedOnce, ...clueLines, ...awaiting, ...tail],
  };
}

function describeCombination(
  count: number,
  earliest: ResolvedEnd,
  latest: ResolvedEnd,
  dacs: string,
  byId: Map<number, EvidenceInput>,
): string[] {
  const cited = (ids: number[]) => citeAll(ids.map((id) => byId.get(id)!));
  const sentences = [
    count === 1
      ? 'One estimate counts towards the result.'
      : `${count} estimates count towards the result; each end is the confidence-weighted median of their ends.`,
  ];
  const sameSetters = earliest.approximate && latest.approximate && earliest.setBy.join() === latest.setBy.join();
  const fromEstimates = sameSetters
    ? [`both ends from ${cited(earliest.setBy)}`]
    : [
        earliest.approximate ? `lower end from ${cited(earliest.setBy)}` : null,
        latest.approximate ? `upper end from ${cited(latest.setBy)}` : null,
      ].filter((part) => part !== null);
  if (fromEstimates.length) sentences.push(`Estimated ${dacs}: ${fromEstimates.join('; ')}.`);
  return sentences;
}
