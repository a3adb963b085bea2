/**
 * One job followed live (a backup, an export, a locate the archivist started): `jobs.list` for its
 * id from the shared cache, re-read when `jobs.changed` names it.
 */
import type { JobSummary } from '../../../shared/contract';
import { useQuery } from './hooks';

export function useWatchedJob(id: number | null): JobSummary | undefined {
  const q = useQuery('jobs.list', { ids: [id ?? 0], limit: 1 }, [], {
    enabled: id != null,
    invalidateOn: ['jobs.changed'],
    about: { 'jobs.changed': [id ?? 0] },
  });
  const job = q.data?.items[0];
  return id != null && job?.id === id ? job : undefined;
}

export const isActive = (job: JobSummary | undefined) => job?.status === 'queued' || job?.status === 'running';
