/**
 * The current (or last) import, as main reports it: the shared cache's `photos.importStatus`,
 * which `import.progress` events keep up to date without a request (api/server-events.ts). After
 * the files are read, the photos' metadata jobs still decide which were unreadable: the summary is
 * re-read, settled, as photos change. Starting, choosing and cancelling go through here too.
 */
import { useState } from 'react';
import { client } from '../../api/client';
import { queryCache, useQuery } from '../../api/hooks';
import type { ImportProgress, ScanPolicy } from '../../../../shared/contract';

/** Photos change every 200 ms during an import: the summary is re-read at most this often. */
const SUMMARY_SETTLE_MS = 1000;

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
  const status = useQuery('photos.importStatus', {}, [], { invalidateOn: ['photos.changed'], settleMs: SUMMARY_SETTLE_MS });
  // A start that failed hides the last import's counts (they are not this one's) until the next snapshot.
  const [hiddenId, setHiddenId] = useState<number | null>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [question, setQuestion] = useState<ImportQuestion>();
  const progress = status.data && status.data.id !== hiddenId ? status.data : null;
  const show = (p: ImportProgress | null) => {
    setHiddenId(null);
    if (p) queryCache.update('photos.importStatus', {}, p);
  };
  const hide = () => setHiddenId(status.data?.id ?? null);

  const start = async (paths: string[], scanPolicy?: ScanPolicy, confirmed = false) => {
    setBusy(true);
    setError(undefined);
    setQuestion(undefined);
    const r = await client.call('photos.import', { paths, scanPolicy, confirmed });
    setBusy(false);
    if (!r.ok) {
      if (r.error.code === 'needs_confirmation') setQuestion({ message: r.error.message, paths, scanPolicy });
      else {
        setError(r.error.message);
        hide();
      }
      return false;
    }
    show(r.value);
    return true;
  };

  const choose = async (scanPolicy?: ScanPolicy) => {
    setBusy(true);
    setError(undefined);
    const r = await client.call('photos.chooseAndImport', { scanPolicy });
    setBusy(false);
    if (!r.ok) {
      setError(r.error.message);
      hide();
    } else if (r.value) show(r.value);
  };

  const cancel = async () => {
    if (!progress) return;
    const r = await client.call('photos.cancelImport', { id: progress.id });
    if (!r.ok) setError(r.error.message);
    else show(r.value);
  };

  const answer = async (go: boolean) => {
    const asked = question;
    setQuestion(undefined);
    if (go && asked) await start(asked.paths, asked.scanPolicy, true);
  };

  return { progress, running: progress?.status === 'running', error, busy, question, start, answer, choose, cancel };
}
