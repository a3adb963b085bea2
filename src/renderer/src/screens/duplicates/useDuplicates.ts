/**
 * The Duplicates screen's data, from the shared cache: one view's groups (re-read, settled, when
 * photos change, which is how a scan announces new pairs, and after every decision), and the
 * latest duplicate scan with its live state (re-read as jobs change).
 */
import { useEffect, useRef, useState } from 'react';
import { client } from '../../api/client';
import { useQuery } from '../../api/hooks';
import type { CallOutput } from '../../../../shared/contract';
import type { DuplicateView } from '../../../../shared/duplicates/contract';

type List = CallOutput<'duplicates.list'>;
const PAGE = 100;
/** Photos change in bursts while an import runs: re-read at most this often. */
const SETTLE_MS = 600;
/** Jobs change many times a second while an import runs; the scan's line follows within this. */
const SCAN_SETTLE_MS = 500;

export function useDuplicates(view: DuplicateView) {
  const [limit, setLimit] = useState(PAGE);
  useEffect(() => setLimit(PAGE), [view]);
  const q = useQuery('duplicates.list', { view, limit, offset: 0 }, [], {
    invalidateOn: ['photos.changed'],
    settleMs: SETTLE_MS,
  });
  // Another view, or more groups, is a new answer: the last one stays on screen until it arrives.
  const shown = useRef<List | undefined>(undefined);
  if (q.data) shown.current = q.data;
  const list = q.data ?? shown.current;
  return {
    list,
    error: q.error?.message,
    reload: q.reload,
    more: list && list.total > list.groups.length ? () => setLimit((l) => l + PAGE) : undefined,
  };
}

/** The latest duplicate scan, kept live, and a way to start one. */
export function useScanJob() {
  // A new scan (started by the scheduler) has an id not known yet: any job change may be it.
  const q = useQuery('jobs.list', { types: ['duplicate_scan'], limit: 1 }, [], {
    invalidateOn: ['jobs.changed'],
    settleMs: SCAN_SETTLE_MS,
  });
  const [error, setError] = useState<string>();
  const start = async () => {
    setError(undefined);
    const r = await client.call('jobs.enqueue', { type: 'duplicate_scan', payload: {} });
    if (!r.ok) return setError(r.error.message);
    q.reload();
  };
  const job = q.data ? (q.data.items[0] ?? null) : undefined;
  return { job, error, start };
}
