/**
 * Jobs in the archivist's words: what a job is about, what each audit event means, who did it,
 * and what makes sense after a failure. Internals (owner ids, raw payloads, event codes) are left
 * to the "Technical details" disclosure.
 */
import type { JobSummary } from '../../../../shared/contract';
import { allJobTypes, jobTypeLabel } from '../../../../shared/jobs/types';

/** "Metadata", "OCR", … for product types; a diagnostic type keeps its code name. */
export const typeLabel = (type: string): string => jobTypeLabel(type);

/** What a job is about, in words: the photo's file name, its type's words for it, or nothing for library-wide work. */
export function subjectLabel(job: Pick<JobSummary, 'photo' | 'subject' | 'type'>): string {
  if (job.photo) return job.photo.filename;
  if (job.subject?.startsWith('photo:')) return 'a photo no longer in the library';
  const words = allJobTypes[job.type]?.ui.subjectWords;
  return job.subject && words ? words(job.subject) : '';
}

/** Who did it: the archivist, an import, or Circa itself (a worker, housekeeping). */
export function actorLabel(actor: string): string {
  if (actor === 'user') return 'You';
  if (actor === 'import') return 'Import';
  return 'Circa';
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** One line of a job's history, e.g. "Started (attempt 2)", "Failed; will be retried". */
export function auditLabel(event: string, data: Record<string, unknown>): string {
  const attempt = num(data.attempt);
  const nth = attempt != null && attempt > 1 ? ` (attempt ${attempt})` : '';
  switch (event) {
    case 'enqueued':
      return 'Queued';
    case 'claimed':
      return `Started${nth}`;
    case 'succeeded':
      return 'Finished';
    case 'failed':
      return data.permanent ? 'Failed: a retry cannot fix it' : data.retryable ? 'Failed; will be retried' : 'Failed';
    case 'retry_later':
      return 'Asked to wait, then try again';
    case 'released':
      return 'Put back in the queue (Circa stopped or shared out work)';
    case 'orphan_released':
      return 'Put back in the queue (the process running it had stopped)';
    case 'reclaimed':
      return 'Taken back (the process running it stopped answering)';
    case 'cancel_requested':
      return 'Asked to stop';
    case 'cancelled':
      return 'Cancelled';
    case 'run_now':
      return 'Asked to run now';
    case 'acknowledged':
      if (num(data.supersededBy) != null) return `Answered by a new attempt, job #${String(data.supersededBy)}`;
      if (data.retriedAll) return 'Retried with “Retry failed”';
      return 'Dismissed';
    default:
      return event.replaceAll('_', ' ');
  }
}

export interface Remedy {
  /** Why a plain retry is not offered, in one sentence. */
  why: string;
  /** Where to go to fix the cause, if anywhere. */
  fix?: { label: string; href: string };
}

/** For a permanent failure: why retrying alone will not help, and where the cause can be fixed. */
export function permanentRemedy(job: Pick<JobSummary, 'type' | 'photo'>): Remedy {
  const own = allJobTypes[job.type]?.ui.permanentRemedy;
  if (own) return own;
  if (!job.photo) return { why: 'A retry runs the same work the same way and will fail again unless its cause is fixed.' };
  return {
    why: 'A retry reads the same file the same way and will fail again unless the file is replaced or repaired.',
    fix: { label: 'Open the photo', href: `#/photo/${job.photo.id}` },
  };
}
