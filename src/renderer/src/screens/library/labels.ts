/** Words the library shows for the contract's sorts, filters and estimate states. */
import type { CallInput, PhotoSummary } from '../../../../shared/contract';

type ListInput = CallInput<'photos.list'>;
export type PhotoSort = NonNullable<ListInput['sort']>;
export type PhotoFilter = NonNullable<ListInput['filter']>;

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
