/**
 * The library grid's "unreviewed duplicates" filter: photos in a pair the scan proposed that is
 * not inside one confirmed group (the same rule as the Duplicates screen's unreviewed groups).
 */
const OPEN_PAIR = `status = 'proposed' AND NOT EXISTS (
    SELECT 1 FROM duplicate_group_members m1 JOIN duplicate_group_members m2 ON m2.group_id = m1.group_id
     WHERE m1.photo_id = photo_lo AND m2.photo_id = photo_hi)`;

export const UNREVIEWED_DUPLICATES = `id IN (SELECT photo_lo FROM duplicate_pairs WHERE ${OPEN_PAIR}
  UNION SELECT photo_hi FROM duplicate_pairs WHERE ${OPEN_PAIR})`;
