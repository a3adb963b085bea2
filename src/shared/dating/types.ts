// Shared vocabulary of the dating feature: what the text extractor finds, what
// evidence rows feed the estimator, and what the estimator returns.
// All dates are inclusive day numbers encoded as integers YYYYMMDD (see daynum.ts).

export type Precision = 'day' | 'month' | 'season' | 'year' | 'decade' | 'century';

/** How finely each end of an interval was stated (null: open end, or not known). */
export interface EndPrecisions {
  earliest: Precision | null;
  latest: Precision | null;
}

/** One date found in free text (OCR of a caption, a postmark, a note on the back of a print). */
export interface FoundDate {
  /** The exact substring matched, qualifiers such as "c." included. */
  text: string;
  /** Offset of `text` in the input. */
  index: number;
  /** Inclusive YYYYMMDD interval. */
  earliest: number;
  latest: number;
  precision: Precision;
  /** "c. 1935", "circa", "ca.", "abt", "~", "about", "193?". */
  approximate: boolean;
  /** 0..1: how sure we are that this is a date of the photo. */
  confidence: number;
  /** Human explanation, e.g. "written date 'June 12, 1947'". */
  reason: string;
  /**
   * Set when the text says this date is of the object's use (a postmark, "developed", "printed",
   * "received", a copyright line, an accession or gift), not of the picture: the picture is no later.
   */
  use?: DateUse | null;
  /**
   * EDTF of this reading with its uncertainty marks: '1906-07-04?', '1906~', '1906-21' (a season),
   * '1906-07/1919', '../1906'. Set by extractDates for every date it returns.
   */
  edtf?: string;
  /** How finely each end was written, when the ends differ ('July 1906 - 1919'); null: an open end. */
  ends?: EndPrecisions;
  /** The EDTF of the list or alternatives this date is one of: '[1906-07-04,1906-07-05]', '[1906,1907]'. */
  set?: string;
  /** Marked questionable ('?'): the date as written may be wrong. `approximate` is also set. */
  uncertain?: boolean;
  /** The documented convention that decided the reading (season months, thirds of a decade, numeric order). */
  convention?: string;
  /**
   * A numeric date that could be read the other way round (7/4/1906): the reading not used. `ends`
   * as above, when a bound word made it open-ended too ('not after 7/4/1906').
   */
  otherReading?: { earliest: number; latest: number; edtf: string; reading: string; ends?: EndPrecisions } | null;
}

export type UseCue = 'postmark' | 'processing' | 'printing' | 'receipt' | 'copyright' | 'accession' | 'gift' | 'digitisation';

export interface DateUse {
  cue: UseCue;
  /** The word in the text that says so, e.g. "Postmarked". */
  word: string;
}

export type EvidenceKind = 'bound' | 'estimate';
export type ReviewStatus = 'pending' | 'accepted' | 'rejected';
/** note: a date or named event in the archivist's own notes on the photo. */
export type EvidenceSource = 'exif' | 'ocr' | 'ai' | 'manual' | 'duplicate' | 'note';

export interface EvidenceInput {
  id: number;
  source: EvidenceSource;
  /**
   * bound: hard ('not before' = earliest only, 'not after' = latest only, 'between' = both);
   * estimate: soft, weighed by `confidence`.
   */
  kind: EvidenceKind;
  /** YYYYMMDD, or null for an open end. */
  earliest: number | null;
  latest: number | null;
  /** 0..1, for estimates. */
  confidence: number | null;
  /** How finely each end was stated; an end is never shown coarser than this. Unset: as aligned. */
  precision?: EndPrecisions;
  reviewStatus: ReviewStatus;
  /** What a person reads, e.g. "Caption reads 'Xmas 1942'". */
  summary: string;
  /** For a finding carried from a copy of the photograph (source 'duplicate'): the source that found it. */
  originSource?: EvidenceSource | null;
}

export type EstimateStatus = 'undated' | 'needs_review' | 'estimated' | 'conflict';

export interface EstimateConflict {
  evidenceIds: number[];
  reason: string;
}

export interface Estimate {
  status: EstimateStatus;
  /** Numeric and sortable; null when undated, in conflict, or open at that end. */
  earliest: number | null;
  latest: number | null;
  confidence: number | null;
  /** Evidence ids that determine the lower end. */
  earliestSetBy: number[];
  /** Evidence ids that determine the upper end. */
  latestSetBy: number[];
  conflicts: EstimateConflict[];
  /** e.g. '1935/1942', '1925~', '../1867', '189X', '1947-06-12', '1935~/1942~'. */
  edtf: string | null;
  /** e.g. 'approximately 1925', 'not after 1867', 'circa 1935–1942', '1890s', '1947 June 12'. */
  dacs: string | null;
  /** Sentences: which evidence set each end, what was ignored, what conflicts. */
  explanation: string[];
  /** Evidence that is only a clue (clue-rule.ts): listed, never counted in the dates above. */
  clueIds: number[];
  /** What the clues alone would say (a photo with only clues); null when there are none or the photo is dated. */
  withClues: EstimateWithClues | null;
}

export interface EstimateWithClues {
  earliest: number | null;
  latest: number | null;
  confidence: number | null;
  edtf: string | null;
  dacs: string | null;
}
