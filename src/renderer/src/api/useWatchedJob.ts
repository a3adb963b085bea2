/** One job followed live (a backup or an export the archivist started): re-read when an event names it. */
import { useCallback, useEffect, useState } from 'react';
import type { JobSummary } from '../../../shared/contract';
import { client } from './client';
import { useEvent } from './hooks';

export function useWatchedJob(id: number | null): JobSummary | undefined {
  const [job, setJob] = useState<JobSummary>();
  const read = useCallback(() => {
    if (id == null) return setJob(undefined);
    void client.call('jobs.list', { ids: [id], limit: 1 }).then((r) => {
      if (r.ok && r.value.items[0]?.id === id) setJob(r.value.items[0]);
    });
  }, [id]);
  useEffect(read, [read]);
  useEvent('jobs.changed', (e) => {
    if (id != null && (e.changedIds.includes(id) || !e.changedIds.length)) read();
  });
  return id == null ? undefined : job;
}

export const isActive = (job: JobSummary | undefined) => job?.status === 'queued' || job?.status === 'running';
