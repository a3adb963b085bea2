/** How many groups of duplicates wait for review, next to "Duplicates" in the sidebar, kept up to date. */
import { useEffect, useRef } from 'react';
import { useEvent, useQuery } from '../api/hooks';

/** Photos change in bursts during an import: count again at most this often. */
const SETTLE_MS = 2_000;

export function DuplicatesBadge() {
  const q = useQuery('duplicates.list', { view: 'unreviewed', limit: 1 });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reload = useRef(q.reload);
  reload.current = q.reload;
  useEvent('photos.changed', () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => reload.current(), SETTLE_MS);
  });
  useEffect(() => () => clearTimeout(timer.current), []);
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
