/** Running/queued/failed counts next to "Jobs" in the sidebar, live. */
import { useState } from 'react';
import { useEvent, useQuery } from '../api/hooks';
import type { JobCounts } from '../../../shared/contract';

export function JobCountsBadge() {
  const q = useQuery('jobs.counts', {});
  const [live, setLive] = useState<JobCounts>();
  useEvent('jobs.changed', (e) => setLive(e.counts));
  const c = live ?? q.data?.counts;
  if (!c) return null;
  const active = c.queued + c.running;
  return (
    <span className="nav-badges">
      {active > 0 && (
        <span className="badge badge-active" title={`${c.running} running, ${c.queued} queued`}>
          {active}
        </span>
      )}
      {c.failed > 0 && (
        <span className="badge badge-failed" title={`${c.failed} failed`}>
          {c.failed}
        </span>
      )}
    </span>
  );
}
