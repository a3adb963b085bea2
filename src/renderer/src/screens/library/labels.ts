/** Words the library shows for the contract's sorts, filters and estimate states. */
import type { CallInput, PhotoSummary } from '../../../../shared/contract';

type ListInput = CallInput<'photos.list'>;
export type PhotoSort = NonNullable<ListInput['sort']>;
export type PhotoFilter = NonNullable<ListInput['filter']>;
export type YearMode = NonNullable<ListInput['yearMode']>;

export const YEAR_MODE_LABEL: Record<YearMode, string> = {
  within: 'dated within',
  overlaps: 'could be from',
};

export const YEAR_MODE_HINT: Record<YearMode, string> = {
  within: 'Photos whose estimate lies inside these years',
  overlaps: 'Photos whose estimate overlaps these years (an open end such as “not after 2004” reaches every earlier year)',
};

export const SORT_LABEL: Record<PhotoSort, string> = {
  imported: 'Sort: recently imported',
  filename: 'Sort: filename',
  date: 'Sort: date estimate',
};

export const FILTER_LABEL: Record<PhotoFilter, string> = {
  all: 'All photos',
  needs_metadata: 'Needs metadata',
  failed: 'Metadata failed',
  missing: 'Missing files',
  has_evidence: 'Has date evidence',
  undated: 'Undated',
  needs_review: 'Needs review',
  conflict: 'Conflicting evidence',
  unreviewed_duplicates: 'Duplicates to review',
};

export const ESTIMATE_STATUS_LABEL: Record<PhotoSummary['estimateStatus'], string> = {
  undated: 'Undated',
  needs_review: 'Needs review',
  estimated: 'Estimated',
  conflict: 'Conflicting evidence',
};
