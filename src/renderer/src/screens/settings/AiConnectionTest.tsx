/**
 * "Test connection": one real request to the visual-analysis backend as typed in the form (saved
 * or not), made by a worker (an `ai_test` job), and what came back — the model's answer and how
 * long it took, or what went wrong (unreachable, rejected key, unknown model, an unusable reply).
 */
import { useEffect, useState } from 'react';
import { client } from '../../api/client';
import { useWatchedJob } from '../../api/useWatchedJob';
import type { JobSummary, Settings } from '../../../../shared/contract';
import { aiConnectionHint } from './aiHint';

type Draft = Pick<Settings, 'aiBackend' | 'aiBaseUrl' | 'aiModel'>;

interface Props {
  draft: Draft;
  /** Field problems found before asking (shown on the fields by the form). */
  onProblems(problems: { path: (string | number)[]; message: string }[]): void;
}

export function AiConnectionTest({ draft, onProblems }: Props) {
  const [started, setJob] = useState<JobSummary>();
  const job = useWatchedJob(started?.id ?? null) ?? started;
  const [note, setNote] = useState<{ kind: 'ok' | 'error' | 'warn'; text: string }>();
  const [testedKey, setTestedKey] = useState('');
  const key = `${draft.aiBackend}|${draft.aiBaseUrl}|${draft.aiModel}`;

  // Its failure is shown right here: it is seen, and needs no red badge on Jobs.
  const unseenFailure = job?.status === 'failed' && job.acknowledgedAt == null ? job.id : null;
  useEffect(() => {
    if (unseenFailure != null) void client.call('jobs.acknowledge', { ids: [unseenFailure] });
  }, [unseenFailure]);

  const run = async () => {
    setNote(undefined);
    setJob(undefined);
    const { aiBackend, aiBaseUrl, aiModel } = draft;
    const r = await client.call('settings.testAi', { aiBackend, aiBaseUrl, aiModel });
    if (!r.ok) {
      if (r.error.issues?.length) onProblems(r.error.issues);
      return setNote({ kind: 'error', text: r.error.message });
    }
    setJob(r.value.job);
    setTestedKey(key);
    if (r.value.paused)
      setNote({ kind: 'warn', text: 'Processing is paused: the test runs when you resume it on the Jobs page.' });
  };

  const active = job?.status === 'queued' || job?.status === 'running';
  const stale = job && testedKey !== key;
  const hint = job?.status === 'failed' ? aiConnectionHint(draft.aiBackend, draft.aiBaseUrl, job.errorMessage ?? '') : null;
  return (
    <div className="ai-test" data-testid="ai-test">
      <div className="ai-test-row">
        <button type="button" onClick={() => void run()} disabled={active}>
          {active ? 'Testing…' : 'Test connection'}
        </button>
        <span className="field-note">Sends one small picture to the backend, as an analysis would, and shows the answer.</span>
      </div>
      {note && (
        <p className={`flash flash-${note.kind}`} role={note.kind === 'error' ? 'alert' : 'status'}>
          {note.text}
        </p>
      )}
      {job?.status === 'success' && (
        <p className="flash flash-ok" role="status" data-testid="ai-test-result">
          Connected: {job.resultSummary}
          {stale && ' (before the settings above were changed)'}
        </p>
      )}
      {(job?.status === 'failed' || job?.status === 'cancelled') && (
        <p className="flash flash-error" role="alert" data-testid="ai-test-result">
          {job.status === 'cancelled' ? 'The test was cancelled.' : `The test failed: ${job.errorMessage ?? 'no reason given'}`}{' '}
          <a href={`#/jobs/${job.id}`}>See the job</a>
          {stale && ' (before the settings above were changed)'}
          {hint && (
            <span className="ai-test-hint" data-testid="ai-test-hint">
              {hint}
            </span>
          )}
        </p>
      )}
    </div>
  );
}
