/**
 * The Duplicates screen's data: one view's groups (re-read when photos change, which is how a scan
 * announces new pairs, and after every decision), the counts of every view, and the latest
 * duplicate scan with its live state.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { client } from '../../api/client';
import { useEvent } from '../../api/hooks';
import type { CallOutput, JobSummary } from '../../../../shared/contract';
import type { DuplicateView } from '../../../../shared/duplicates/contract';

type List = CallOutput<'duplicates.list'>;
const PAGE = 100;
/** Photos change in bursts while an import runs: re-read at most this often. */
const SETTLE_MS = 600;

export function useDuplicates(view: DuplicateView) {
  const [list, setList] = useState<List>();
  const [error, setError] = useState<string>();
  const [limit, setLimit] = useState(PAGE);
  const seq = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++seq.current;
    const r = await client.call('duplicates.list', { view, limit, offset: 0 });
    if (mine !== seq.current) return;
    if (r.ok) {
      setList(r.value);
      setError(undefined);
    } else setError(r.error.message);
  }, [view, limit]);

  useEffect(() => {
    void reload();
  }, [reload]);
  useEffect(() => setLimit(PAGE), [view]);

  // The timer reads the view at the time it fires (a tab switch may come in between).
  const latest = useRef(reload);
  latest.current = reload;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEvent('photos.changed', () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void latest.current(), SETTLE_MS);
  });
  useEffect(() => () => clearTimeout(timer.current), []);

  return {
    list,
    error,
    reload,
    more: list && list.total > list.groups.length ? () => setLimit((l) => l + PAGE) : undefined,
  };
}

/** The latest duplicate scan, kept live, and a way to start one. */
export function useScanJob() {
  const [job, setJob] = useState<JobSummary | null>();
  const [error, setError] = useState<string>();
  const read = useCallback(async () => {
    const r = await client.call('jobs.list', { types: ['duplicate_scan'], limit: 1 });
    if (r.ok) setJob(r.value.items[0] ?? null);
  }, []);
  useEffect(() => {
    void read();
  }, [read]);
  const id = job?.id;
  useEvent('jobs.changed', (e) => {
    // A new scan (started by the scheduler) has an id we do not know yet: read while none is active.
    if ((id != null && e.changedIds.includes(id)) || !job || !['queued', 'running'].includes(job.status)) void read();
  });
  const start = async () => {
    setError(undefined);
    const r = await client.call('jobs.enqueue', { type: 'duplicate_scan', payload: {} });
    if (!r.ok) return setError(r.error.message);
    setJob(r.value.job);
  };
  return { job, error, start };
}
