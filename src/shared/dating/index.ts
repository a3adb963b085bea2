// Public API of the dating feature: find dates in text, combine evidence into
// an estimate, and render intervals as EDTF and DACS.
export type {
  Estimate,
  EstimateConflict,
  EstimateWithClues,
  EstimateStatus,
  EvidenceInput,
  EvidenceKind,
  EvidenceSource,
  FoundDate,
  Precision,
  ReviewStatus,
  EndPrecisions,
  DateUse,
  UseCue,
} from './types';
export {
  addDays,
  compare,
  dayCount,
  dayNum,
  daysInMonth,
  isDayNum,
  MAX_YEAR,
  MIN_YEAR,
  MONTH_NAMES,
  monthEnd,
  monthStart,
  parts,
  toIsoDate,
  yearEnd,
  yearOf,
  yearStart,
  type DayParts,
} from './daynum';
export { extractDates, type ExtractDatesOptions } from './extract-dates';
export { estimate } from './estimate';
export { CLUE_RULE, DATE_CONFIDENCE_FLOOR, clueReason, isClue } from './clue-rule';
export { weakClueCount, weakClueFlag, weakClueTag, yearsOfDays, type ClueYears } from './clue-words';
export { describeEnd, describeStart, toDacs, toEdtf, type ApproximateEnds, type FormatOptions } from './format';
export { FIRST_PHOTOGRAPH_YEAR } from './photo-era';
export { decodePrecision, encodePrecision, finest, PRECISIONS } from './precision';
export { partialDateProblem, partialEnd, partialPrecision, partialStart, type PartialDate } from './partial-date';
