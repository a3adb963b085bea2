import { useEffect, useState } from 'react';
import { client } from '../api/client';
import { useQuery } from '../api/hooks';
import type { Settings } from '../../../shared/contract';
import { ApiKeyField } from './settings/ApiKeyField';
import { SCAN_POLICIES, SCAN_POLICY_HINT, SCAN_POLICY_LABEL } from './scanLabels';

export function SettingsScreen() {
  const q = useQuery('settings.get', {});
  const health = useQuery('app.health', {});
  const [draft, setDraft] = useState<Settings>();
  const [status, setStatus] = useState<{ kind: 'ok' | 'error'; text: string }>();
  useEffect(() => {
    if (q.data) setDraft(q.data);
  }, [q.data]);

  if (q.error) return <p className="flash flash-error">{q.error.message}</p>;
  if (!draft) return <p className="muted">Loading…</p>;
  const set = <K extends keyof Settings>(k: K, v: Settings[K]) => setDraft({ ...draft, [k]: v });

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    const r = await client.call('settings.update', draft);
    if (r.ok) {
      setDraft(r.value);
      setStatus({ kind: 'ok', text: 'Settings saved. A new worker count applies the next time Circa starts.' });
    } else {
      setStatus({
        kind: 'error',
        text: r.error.issues?.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') || r.error.message,
      });
    }
  };

  return (
    <section className="screen" aria-labelledby="settings-title">
      <header className="screen-head">
        <h1 id="settings-title">Settings</h1>
      </header>
      <form className="settings-form" onSubmit={save}>
        <fieldset>
          <legend>Library</legend>
          <p className="field-note">
            Library folder: <span className="mono">{health.data?.libraryDir ?? '…'}</span> (schema{' '}
            {health.data?.schemaVersion ?? '…'}). Start Circa with <span className="mono">--library DIR</span> or set{' '}
            <span className="mono">CIRCA_LIBRARY</span> to use another.
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
          {draft.aiBackend !== 'heuristic' && (
            <>
              <label className="field">
                <span>Server URL</span>
                <input
                  type="url"
                  placeholder={draft.aiBackend === 'ollama' ? 'http://127.0.0.1:11434' : 'http://127.0.0.1:1234/v1'}
                  value={draft.aiBaseUrl}
                  onChange={(e) => set('aiBaseUrl', e.target.value)}
                />
              </label>
              <label className="field">
                <span>Model</span>
                <input value={draft.aiModel} onChange={(e) => set('aiModel', e.target.value)} placeholder="e.g. llava:13b" />
              </label>
            </>
          )}
          {draft.aiBackend === 'openai-compatible' && <ApiKeyField />}
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
          {status && (
            <span className={`flash flash-${status.kind}`} role={status.kind === 'error' ? 'alert' : 'status'}>
              {status.text}
            </span>
          )}
        </div>
      </form>
    </section>
  );
}
