/**
 * The current (or last) import, as main reports it: read once on mount, then kept up to date by
 * `import.progress` events. Starting, choosing and cancelling go through here too.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { client } from '../../api/client';
import { useEvent } from '../../api/hooks';
import type { ImportProgress, ScanPolicy } from '../../../../shared/contract';

const done = (p: ImportProgress) => p.status !== 'running';

/** Events can cross an answer in flight: never let an older snapshot replace a newer one. */
function newer(old: ImportProgress | null, next: ImportProgress | null): ImportProgress | null {
  if (!next) return old;
  if (!old || next.id > old.id) return next;
  if (next.id < old.id) return old;
  if (done(old) && !done(next)) return old;
  return next;
}

/** Main asked before an import that looks like a mistake (a whole disk, a huge folder). */
export interface ImportQuestion {
  message: string;
  paths: string[];
  scanPolicy?: ScanPolicy;
}

export interface ImportState {
  progress: ImportProgress | null;
  running: boolean;
  error?: string;
  busy: boolean;
  question?: ImportQuestion;
  start(paths: string[], scanPolicy?: ScanPolicy, confirmed?: boolean): Promise<boolean>;
  /** Answers the question: go ahead with its paths, or drop it. */
  answer(go: boolean): Promise<void>;
  choose(scanPolicy?: ScanPolicy): Promise<void>;
  cancel(): Promise<void>;
}

export function useImport(): ImportState {
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [question, setQuestion] = useState<ImportQuestion>();

  useEffect(() => {
    void client.call('photos.importStatus', {}).then((r) => {
      if (r.ok) setProgress((p) => newer(p, r.value));
    });
  }, []);
  useEvent('import.progress', (e) => setProgress((p) => newer(p, e)));

  // After the files are read, the photos' metadata jobs still decide which were unreadable: the
  // summary is asked again while photos change and some of this import's are still being read.
  const asking = useRef(false);
  useEvent('photos.changed', () => {
    if (!progress || progress.status === 'running' || !progress.reading || asking.current) return;
    asking.current = true;
    void client.call('photos.importStatus', {}).then((r) => {
      asking.current = false;
      if (r.ok) setProgress((p) => newer(p, r.value));
    });
  });

  const start = useCallback(async (paths: string[], scanPolicy?: ScanPolicy, confirmed = false) => {
    setBusy(true);
    setError(undefined);
    setQuestion(undefined);
    const r = await client.call('photos.import', { paths, scanPolicy, confirmed });
    setBusy(false);
    if (!r.ok) {
      if (r.error.code === 'needs_confirmation') setQuestion({ message: r.error.message, paths, scanPolicy });
      else {
        setError(r.error.message);
        setProgress(null); // the last import's counts are not this one's
      }
      return false;
    }
    setProgress((p) => newer(p, r.value));
    return true;
  }, []);

  const choose = useCallback(async (scanPolicy?: ScanPolicy) => {
    setBusy(true);
    setError(undefined);
    const r = await client.call('photos.chooseAndImport', { scanPolicy });
    setBusy(false);
    if (!r.ok) {
      setError(r.error.message);
      setProgress(null);
    } else if (r.value) setProgress((p) => newer(p, r.value));
  }, []);

  const cancel = useCallback(async () => {
    if (!progress) return;
    const r = await client.call('photos.cancelImport', { id: progress.id });
    if (!r.ok) setError(r.error.message);
    else setProgress((p) => newer(p, r.value));
  }, [progress]);

  const answer = useCallback(
    async (go: boolean) => {
      const asked = question;
      setQuestion(undefined);
      if (go && asked) await start(asked.paths, asked.scanPolicy, true);
    },
    [question, start],
  );

  return { progress, running: progress?.status === 'running', error, busy, question, start, answer, choose, cancel };
}
