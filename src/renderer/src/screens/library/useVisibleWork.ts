/**
 * What is on screen gets its work done first, and tiles on screen stay true to their jobs:
 *  - the ids of the photos in view go to main (`photos.inView`, settled for a moment, only when
 *    they change), which runs their queued jobs before the rest of an import;
 *  - while tiles in view wait for their metadata (queued, being read, retrying), they are re-read
 *    when jobs change (at most about once a second), since a job starting or being cancelled does
 *    not change the photo itself.
 */
import { useEffect, useRef } from 'react';
import { client } from '../../api/client';
import { useEvent } from '../../api/hooks';

const SETTLE_MS = 250;
const REFRESH_EVERY_MS = 1000;

export function useInView(ids: readonly number[], enabled: boolean): void {
  const key = enabled ? ids.join(',') : null;
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (key === null || key === sent.current) return;
    const t = setTimeout(() => {
      sent.current = key;
      void client.call('photos.inView', { ids: key ? key.split(',').slice(0, 500).map(Number) : [] });
    }, SETTLE_MS);
    return () => clearTimeout(t);
  }, [key]);
  // Hidden (another screen, or a photo open over the grid): the next time it shows, send again.
  useEffect(() => {
    if (!enabled) sent.current = null;
  }, [enabled]);
}

export function useLiveTiles(waitingIds: readonly number[], refresh: (ids: number[]) => void): void {
  const waiting = useRef(waitingIds);
  waiting.current = waitingIds;
  const due = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (due.current) clearTimeout(due.current);
    },
    [],
  );
  // Not through the query cache: it asks the grid's paged list (usePhotoList) to re-read the tiles
  // still waiting on work, at most every REFRESH_EVERY_MS, since jobs.changed does not name photos.
  useEvent('jobs.changed', () => {
    if (!waiting.current.length || due.current) return;
    due.current = setTimeout(() => {
      due.current = null;
      if (waiting.current.length) refresh([...waiting.current]);
    }, REFRESH_EVERY_MS);
  });
}
