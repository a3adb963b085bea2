/**
 * The dates read in a caption or note typed by the archivist, for the photo screen's "Dates read
 * in the notes" panel: read with the library's numeric date order, each with its EDTF, precision,
 * DACS wording, the convention used, and the manual constraint it becomes if the archivist uses it
 * (a date never becomes evidence by itself: the archivist decides).
 */
import type { CaptionDate } from '../../shared/caption-dates';
import type { ManualConstraint } from '../../shared/contract';
import { extractDates, parts, toDacs, type FoundDate, type Precision } from '../../shared/dating';
import type { NumericDateOrder } from '../../shared/dating/notation-conventions';
import type { PartialDate } from '../../shared/dating/partial-date';

const MAX_DATES = 100;

/** An end as a partial date at the precision it was written (a season's or holiday's ends to the day). */
function partialAt(day: number, precision: Precision | null): PartialDate {
  const { year, month, day: d } = parts(day);
  if (precision === 'year' || precision === 'decade' || precision === 'century') return { year };
  if (precision === 'month') return { year, month };
  return { year, month, day: d };
}

/** The constraint a reading becomes: between its ends, or not before / not after for an open range. */
export function constraintOf(found: Pick<FoundDate, 'earliest' | 'latest' | 'precision' | 'ends'>): ManualConstraint {
  const ends = found.ends ?? { earliest: found.precision, latest: found.precision };
  // A season or holiday, or a decade part, does not start and end on its own precision's edges.
  const startPrecision = ends.earliest === 'season' ? 'day' : ends.earliest;
  const endPrecision = ends.latest === 'season' ? 'day' : ends.latest;
  if (ends.earliest === null) return { type: 'not_after', ...partialAt(found.latest, endPrecision) };
  if (ends.latest === null) return { type: 'not_before', ...partialAt(found.earliest, startPrecision) };
  return { type: 'between', from: partialAt(found.earliest, startPrecision), to: partialAt(found.latest, endPrecision) };
}

function precisionOf(found: FoundDate): string {
  const ends = found.ends;
  return ends ? `${ends.earliest ?? 'open'}/${ends.latest ?? 'open'}` : found.precision;
}

export function captionDates(text: string, numericDateOrder: NumericDateOrder): CaptionDate[] {
  return extractDates(text, { dateOrder: numericDateOrder })
    .slice(0, MAX_DATES)
    .map((found) => {
      const other = found.otherReading;
      const ends = found.ends ?? found.precision;
      const otherEnds = other?.ends ?? { earliest: 'day', latest: 'day' };
      return {
        text: found.text,
        index: found.index,
        earliest: found.earliest,
        latest: found.latest,
        edtf: found.edtf ?? toDacs(found.earliest, found.latest),
        set: found.set ?? null,
        precision: precisionOf(found),
        dacs: toDacs(found.ends?.earliest === null ? null : found.earliest, found.ends?.latest === null ? null : found.latest, {
          approximate: found.approximate,
          precision: ends,
        }),
        approximate: found.approximate,
        uncertain: found.uncertain ?? false,
        convention: found.convention ?? null,
        reason: found.reason,
        use: found.use?.word ?? null,
        constraint: constraintOf(found),
        otherReading: other
          ? {
              reading: other.reading,
              edtf: other.edtf,
              dacs: toDacs(otherEnds.earliest === null ? null : other.earliest, otherEnds.latest === null ? null : other.latest, {
                precision: otherEnds,
              }),
              constraint: constraintOf({ earliest: other.earliest, latest: other.latest, precision: 'day', ends: otherEnds }),
            }
          : null,
      };
    });
}
