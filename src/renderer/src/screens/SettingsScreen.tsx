import { useEffect, useState } from 'react';
import { client } from '../api/client';
import { useQuery } from '../api/hooks';
import { StatusFlash, type FlashMessage } from '../components/StatusFlash';
import type { Settings } from '../../../shared/contract';
import { AI_BACKEND_EXAMPLES, aiSettingsProblems } from '../../../shared/ai/settings-check';
import { ApiKeyField } from './settings/ApiKeyField';
import { AiConnectionTest } from './settings/AiConnectionTest';
import { HistoryEntriesSettings } from './settings/HistoryEntriesSettings';
import { NumericDateOrderField } from './settings/NumericDateOrderField';
import { OcrLanguagesField } from './settings/OcrLanguagesField';
import { describeWorkerBudget, workerBudget } from '../../../shared/worker-budget';
import { SCAN_POLICIES, SCAN_POLICY_HINT, SCAN_POLICY_LABEL } from './scanLabels';

type FieldErrors = Partial<Record<keyof Settings, string>>;

/** The words for a field a message is about (when main's issue names no field of this form). */
const FIELD_LABEL: Record<keyof Settings, string> = {
  workerCount: 'Worker processes',
  jobRetentionDays: 'Keep finished jobs for',
  defaultScanPolicy: 'New imports are',
  aiBackend: 'Backend',
  aiBaseUrl: 'Server URL',
  aiModel: 'Model',
  backupSchedule: 'Back up automatically',
  backupKeepDaily: 'Days of daily backups',
  backupKeepWeekly: 'Weeks of weekly backups',
  backupDir: 'Backup folder',
  numericDateOrder: 'Numeric dates',
  ocrLanguages: 'OCR languages',
};

export function SettingsScreen() {
  const q = useQuery('settings.get', {});
  const health = useQuery('app.health', {});
  const [draft, setDraft] = useState<Settings>();
  const [status, setStatus] = useState<FlashMessage>();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  useEffect(() => {
    if (q.data) setDraft(q.data);
  }, [q.data]);

  if (q.error) return <p className="flash flash-error">{q.error.message}</p>;
  if (!draft) return <p className="muted">Loading…</p>;
  // An edit makes "Settings saved" stale, and answers the problem of the field edited.
  const set = <K extends keyof Settings>(k: K, v: Settings[K]) => {
    setDraft({ ...draft, [k]: v });
    setStatus(undefined);
    setFieldErrors((f) => ({ ...f, [k]: undefined, ...(k === 'aiBackend' ? { aiBaseUrl: undefined, aiModel: undefined } : {}) }));
  };
  const showProblems = (issues: { path: (string | number)[]; message: string }[]) => {
    const byField: FieldErrors = {};
    for (const i of issues) byField[i.path[0] as keyof Settings] ??= i.message;
    setFieldErrors(byField);
  };

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    const problems = aiSettingsProblems(draft);
    if (problems.length) {
      showProblems(problems.map((p) => ({ path: [p.path], message: p.message })));
      return setStatus({ kind: 'error', text: 'Not saved: see the fields marked above.' });
    }
    const r = await client.call('settings.update', draft);
    if (r.ok) {
      setDraft(r.value);
      setFieldErrors({});
      setStatus({ kind: 'ok', text: 'Settings saved. A new worker count applies the next time Circa starts.' });
    } else {
      showProblems(r.error.issues ?? []);
      const named = (r.error.issues ?? []).map((i) => `${FIELD_LABEL[i.path[0] as keyof Settings] ?? 'A setting'}: ${i.message}`);
      setStatus({ kind: 'error', text: named.join('; ') || r.error.message });
    }
  };
  const fieldError = (k: keyof Settings) =>
    fieldErrors[k] && (
      <span className="field-error settings-field-error" role="alert" data-testid={`error-${k}`}>
        {fieldErrors[k]}
      </span>
    );
  const example = draft.aiBackend === 'heuristic' ? null : AI_BACKEND_EXAMPLES[draft.aiBackend];

  return (
    <section className="screen" aria-labelledby="settings-title">
      <header className="screen-head">
        <h1 id="settings-title" tabIndex={-1}>
          Settings
        </h1>
      </header>
      <form className="settings-form" onSubmit={save}>
        <fieldset>
          <legend>Library</legend>
          <p className="field-note">
            Library folder: <span className="mono">{health.data?.libraryDir ?? '…'}</span>. Start Circa with{' '}
            <span className="mono">--library DIR</span> or set <span className="mono">CIRCA_LIBRARY</span> to use another.
          </p>
          <label className="field">
            <span>New imports are</span>
            <select
              value={draft.defaultScanPolicy}
              onChange={(e) => set('defaultScanPolicy', e.target.value as Settings['defaultScanPolicy'])}
            >
              {SCAN_POLICIES.map((p) => (
                <option key={p} value={p}>
                  {SCAN_POLICY_LABEL[p]}
                </option>
              ))}
            </select>
          </label>
          <p className="field-note">
            {SCAN_POLICY_HINT[draft.defaultScanPolicy]} The import panel asks each time, starting from this; each photo can be
            changed on its own screen.
          </p>
        </fieldset>
        <NumericDateOrderField value={draft.numericDateOrder} onChange={(order) => set('numericDateOrder', order)} />
        <OcrLanguagesField value={draft.ocrLanguages} onChange={(langs) => set('ocrLanguages', langs)} />
        <fieldset>
          <legend>Background jobs</legend>
          <label className="field">
            <span>Worker processes</span>
            <input
              type="number"
              min={1}
              max={16}
              value={draft.workerCount}
              onChange={(e) => set('workerCount', Number(e.target.value))}
            />
          </label>
          {health.data && (
            <p className="field-note" data-testid="worker-budget">
              {describeWorkerBudget(workerBudget(draft.workerCount, health.data.workerMemory.totalMb))} A change applies at once;
              a worker busy with a job finishes it first.
            </p>
          )}
          <label className="field">
            <span>Keep finished jobs for (days)</span>
            <input
              type="number"
              min={1}
              max={3650}
              value={draft.jobRetentionDays}
              onChange={(e) => set('jobRetentionDays', Number(e.target.value))}
            />
          </label>
        </fieldset>
        <fieldset>
          <legend>Visual analysis</legend>
          <label className="field">
            <span>Backend</span>
            <select value={draft.aiBackend} onChange={(e) => set('aiBackend', e.target.value as Settings['aiBackend'])}>
              <option value="heuristic">Heuristic (offline, weak evidence)</option>
              <option value="ollama">Ollama (local server)</option>
              <option value="openai-compatible">OpenAI-compatible API</option>
            </select>
          </label>
          {example && (
            <>
              <label className={`field${fieldErrors.aiBaseUrl ? ' has-error' : ''}`}>
                <span>Server URL</span>
                <input
                  type="url"
                  placeholder={example.url}
                  value={draft.aiBaseUrl}
                  onChange={(e) => set('aiBaseUrl', e.target.value)}
                  aria-invalid={!!fieldErrors.aiBaseUrl}
                />
              </label>
              {fieldError('aiBaseUrl')}
              <label className={`field${fieldErrors.aiModel ? ' has-error' : ''}`}>
                <span>Model</span>
                <input
                  value={draft.aiModel}
                  onChange={(e) => set('aiModel', e.target.value)}
                  placeholder={`e.g. ${example.model}`}
                  aria-invalid={!!fieldErrors.aiModel}
                />
              </label>
              {fieldError('aiModel')}
            </>
          )}
          {draft.aiBackend === 'openai-compatible' && <ApiKeyField />}
          {example && <AiConnectionTest draft={draft} onProblems={showProblems} />}
          {draft.aiBackend === 'heuristic' && (
            <p className="field-note">
              Image statistics (toning, fading, formats) give weak, wide clues and never a firm date. A vision model can do
              better, but treat it as weak evidence too.
            </p>
          )}
        </fieldset>
        <div className="form-actions">
          <button type="submit" className="primary">
            Save settings
          </button>
          <StatusFlash message={status} />
        </div>
      </form>
      <HistoryEntriesSettings />
    </section>
  );
}
