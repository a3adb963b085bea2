/**
 * The Jobs list's data: keyset pages loaded as the user scrolls (never the whole table), kept
 * live by re-reading only the rows a jobs.changed event names plus the newest page.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { client } from '../api/client';
import { useEvent, useReconnected } from '../api/hooks';
import type { JobSummary } from '../../../shared/contract';

const PAGE = 200;

export interface JobFilter {
  statuses: string[];
  types: string[];
}

export function useJobList(filter: JobFilter) {
  const [rows, setRows] = useState<JobSummary[]>([]);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string>();
  const next = useRef<number | null>(null);
  const loading = useRef(false);
  const generation = useRef(0);
  const key = JSON.stringify(filter);

  const base = useCallback(
    () => ({
      statuses: filter.statuses.length ? (filter.statuses as JobSummary['status'][]) : undefined,
      types: filter.types.length ? filter.types : undefined,
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );

  const reset = useCallback(async () => {
    const gen = ++generation.current;
    loading.current = true;
    const r = await client.call('jobs.list', { ...base(), limit: PAGE });
    loading.current = false;
    if (gen !== generation.current) return;
    if (!r.ok) return setError(r.error.message);
    setError(undefined);
    setRows(r.value.items);
    setTotal(r.value.total);
    next.current = r.value.nextBeforeId;
  }, [base]);

  useEffect(() => {
    void reset();
  }, [reset]);

  const loadMore = useCallback(async () => {
    if (loading.current || next.current == null) return;
    const gen = generation.current;
    loading.current = true;
    const r = await client.call('jobs.list', { ...base(), beforeId: next.current, limit: PAGE });
    loading.current = false;
    if (gen !== generation.current || !r.ok) return;
    next.current = r.value.nextBeforeId;
    setRows((old) => {
      const seen = new Set(old.map((j) => j.id));
      return old.concat(r.value.items.filter((j) => !seen.has(j.id)));
    });
  }, [base]);

  const refresh = useCallback(
    async (changedIds: number[]) => {
      const gen = generation.current;
      const head = await client.call('jobs.list', { ...base(), limit: 50 });
      const loaded = new Set(rowsRef.current.map((j) => j.id));
      const ids = changedIds.filter((id) => loaded.has(id)).slice(0, 500);
      const changed = ids.length ? await client.call('jobs.list', { ...base(), ids, limit: 500 }) : null;
      if (gen !== generation.current || !head.ok) return;
      setTotal(head.value.total);
      setRows((old) => {
        const byId = new Map<number, JobSummary>();
        if (changed?.ok) for (const j of changed.value.items) byId.set(j.id, j);
        for (const j of head.value.items) byId.set(j.id, j);
        const updated = old.map((j) => byId.get(j.id) ?? j);
        // Rows that left the filter (e.g. queued → success while viewing Queued) drop out.
        const stillIn = changed?.ok ? new Set(changed.value.items.map((j) => j.id)) : null;
        const kept = updated.filter((j) => !stillIn || !ids.includes(j.id) || stillIn.has(j.id));
        const newest = kept.length ? kept[0].id : 0;
        const fresh = head.value.items.filter((j) => j.id > newest);
        return fresh.concat(kept);
      });
    },
    [base],
  );

  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  // Not through the query cache, on purpose: the jobs list is paged by keyset and patched by the
  // ids an event names (jobs.list by ids); a cache entry per page would re-read whole pages.
  useEvent('jobs.changed', (e) => void refresh(e.changedIds));
  // Changes made while the connection was down were never pushed: read the list again.
  useReconnected(() => void reset());

  return { rows, total, error, loadMore, reload: reset };
}
