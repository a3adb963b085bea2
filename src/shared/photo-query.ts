/**
 * The library's sorts and filters, by name: the grid's query (the contract) and the export job's
 * scope both use them, so they live apart from either.
 */
export const photoSorts = ['imported', 'filename', 'date'] as const;
/** within: the estimate lies inside the years; overlaps: it could be from them (open ends reach). */
export const yearModes = ['within', 'overlaps'] as const;
export const photoFilters = [
  'all',
  'needs_metadata',
  'failed',
  'missing',
  'has_evidence',
  'undated',
  'needs_review',
  'conflict',
  'unreviewed_duplicates',
] as const;
