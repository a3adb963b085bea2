/**
 * The library grid's "duplicates to review" filter (./photo-listing.ts), over the duplicates
 * room's tables: photos in a pair the scan proposed that is not inside one confirmed group (the
 * same rule as the Duplicates screen's unreviewed groups). The set is small next to the library — pairs to review, read
 * through the pairs' status index — so the grid lists it from here and counts it exactly.
 */
const OPEN_PAIR = `status = 'proposed' AND NOT EXISTS (
    SELECT 1 FROM duplicate_group_members m1 JOIN duplicate_group_members m2 ON m2.group_id = m1.group_id
     WHERE m1.photo_id = photo_lo AND m2.photo_id = photo_hi)`;

/** The ids of the photos with duplicates to review (a SELECT of one column, no duplicates). */
export const UNREVIEWED_DUPLICATE_IDS = `SELECT photo_lo FROM duplicate_pairs WHERE ${OPEN_PAIR}
  UNION SELECT photo_hi FROM duplicate_pairs WHERE ${OPEN_PAIR}`;
