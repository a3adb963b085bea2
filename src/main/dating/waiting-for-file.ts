/**
 * A photo whose file is missing is a state, not a failure: its OCR or analysis job used to run,
 * hit ENOENT and retry every 30 s, spending its attempts. Now the job's load sees the file is
 * not there and asks to wait (RetryLaterError: no attempt charged) with a message that says what
 * to do; when Locate… relinks the photo, its waiting jobs are run at once (`wakeJobsWaitingFor`).
 * The hour is only a fallback for a file that comes back by itself (a drive plugged in again).
 */
import fs from 'node:fs';
import { RetryLaterError } from '../../shared/jobs/errors';
import type { JobService } from '../jobs/service';
import type { PhotoRow } from '../catalogue/photo-repository';

export const WAIT_FOR_FILE_MS = 60 * 60_000;

/** The job types that read a photo's file and wait for it when it is missing. */
export const FILE_READING_TYPES: ReadonlySet<string> = new Set(['ocr', 'ai_analysis']);

/** In a job's load: throws a RetryLaterError when the photo's file is not where the library says. */
export function waitForFile(photo: Pick<PhotoRow, 'path' | 'filename' | 'missing'>): void {
  if (!photo.missing && fs.existsSync(photo.path)) return;
  throw new RetryLaterError(
    `Waiting for the file: ${photo.filename} is not at ${photo.path} any more. ` +
      'Use Locate… on the photo to show where it is now, and this job runs at once.',
    WAIT_FOR_FILE_MS,
  );
}

/** After photos were relinked (outside the transaction that did it): their waiting jobs run now. */
export function wakeJobsWaitingFor(
  jobs: Pick<JobService, 'list' | 'retry'>,
  photoIds: readonly number[],
  now = Date.now(),
): number {
  let woken = 0;
  for (const photoId of photoIds) {
    const { items } = jobs.list({ subject: `photo:${photoId}`, statuses: ['queued'], limit: 20 });
    for (const job of items) {
      if (!FILE_READING_TYPES.has(job.type) || job.runAfter <= now) continue;
      jobs.retry(job.id, {}, 'system');
      woken++;
    }
  }
  return woken;
}
