/** How many groups of duplicates wait for review, next to "Duplicates" in the sidebar, kept up to date. */
import { useQuery } from '../api/hooks';

/** Photos change in bursts during an import: count again at most this often. */
const SETTLE_MS = 2_000;

export function DuplicatesBadge() {
  const q = useQuery('duplicates.list', { view: 'unreviewed', limit: 1 }, [], {
    invalidateOn: ['photos.changed'],
    settleMs: SETTLE_MS,
  });
  const n = q.data?.counts.unreviewed ?? 0;
  if (!n) return null;
  return (
    <span className="nav-badges">
      <span className="badge badge-review" title={`${n} groups of duplicates to review`} data-testid="duplicates-badge">
        {n}
      </span>
    </span>
  );
}
