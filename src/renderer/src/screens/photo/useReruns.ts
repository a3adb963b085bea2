/**
 * Re-running a job for this photo: which button is busy, and a note per job type ("started",
 * "already running", or the error) that goes when the job it was about ends.
 */
import { useEffect, useRef, useState } from 'react';
import { client } from '../../api/client';
import type { PhotoDetails } from '../../../../shared/contract';
import { RERUN_JOB_TYPES, jobTypeInSentence } from '../../../../shared/jobs/types';
import { latestJob, type RerunType } from './RerunControls';
import type { Flash } from './usePhotoReview';

const RERUN_TYPES: readonly RerunType[] = RERUN_JOB_TYPES;

export interface Reruns {
  busy: RerunType | null;
  notes: Partial<Record<RerunType, Flash>>;
  rerun(type: RerunType): Promise<void>;
}

export function useReruns(photoId: number, photo: PhotoDetails | undefined, reload: () => void): Reruns {
  const [busy, setBusy] = useState<RerunType | null>(null);
  const [notes, setNotes] = useState<Partial<Record<RerunType, Flash>>>({});
  useEffect(() => setNotes({}), [photoId]);

  // A note ("already running", "started") is about the job that was active; it goes when that job ends.
  const terminalKey = RERUN_TYPES.map((t) => {
    const j = photo ? latestJob(photo.jobs, t) : undefined;
    return j && !['queued', 'running'].includes(j.status) ? `${j.id}` : '-';
  }).join('|');
  const lastTerminal = useRef(terminalKey);
  useEffect(() => {
    const before = lastTerminal.current.split('|');
    const now = terminalKey.split('|');
    lastTerminal.current = terminalKey;
    const ended = RERUN_TYPES.filter((_, i) => before[i] !== now[i] && now[i] !== '-');
    if (ended.length)
      setNotes((n) => {
        const copy = { ...n };
        ended.forEach((t) => delete copy[t]);
        return copy;
      });
  }, [terminalKey]);

  const rerun = async (type: RerunType) => {
    const ranBefore = !!(photo && latestJob(photo.jobs, type));
    setBusy(type);
    const r = await client.call('photos.rerun', { ids: [photoId], type });
    setBusy(null);
    setNotes((n) => ({
      ...n,
      [type]: !r.ok
        ? { kind: 'error', text: r.error.message }
        : r.value.unreadable
          ? {
              kind: 'error',
              text: `Not started: the file could not be read as an image, so the ${jobTypeInSentence(type)} would fail too. Re-run metadata first.`,
            }
          : r.value.created
            ? { kind: 'ok', text: `Started: ${jobTypeInSentence(type)} ${ranBefore ? 'runs again' : 'runs'}.` }
            : { kind: 'ok', text: `Already running: the ${jobTypeInSentence(type)} job for this photo has not finished yet.` },
    }));
    reload();
  };

  return { busy, notes, rerun };
}
