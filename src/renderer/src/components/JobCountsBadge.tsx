/**
 * Running/queued counts next to "Jobs" in the sidebar, live, and in red the failures nobody has
 * seen yet: dismissed or retried failures no longer count, so the red badge means "something new
 * needs you".
 */
import { useQuery } from '../api/hooks';
import { formatCount, plural } from '../format';

export function JobCountsBadge() {
  // Kept current by each jobs.changed (api/hooks.ts), without a request.
  const q = useQuery('jobs.counts', {});
  const c = q.data?.counts;
  const unseen = q.data?.unseenFailed ?? 0;
  if (!c) return null;
  const active = c.queued + c.running;
  return (
    <span className="nav-badges">
      {active > 0 && (
        <span className="badge badge-active" title={`${formatCount(c.running)} running, ${formatCount(c.queued)} queued`}>
          {formatCount(active)}
        </span>
      )}
      {unseen > 0 && (
        <span className="badge badge-failed" title={`${plural(unseen, 'new failure')} to look at`} data-testid="badge-failed">
          {formatCount(unseen)}
        </span>
      )}
    </span>
  );
}
