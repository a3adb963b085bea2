/** When backups happen, how many are kept, and where they go. */
import { useEffect, useState } from 'react';
import { client } from '../../api/client';
import { useQuery } from '../../api/hooks';
import type { Settings } from '../../../../shared/contract';
import { describeRetention, KEEP_MONTHLY } from '../../../../shared/backup/rotation';

type BackupFields = Pick<Settings, 'backupSchedule' | 'backupKeepDaily' | 'backupKeepWeekly' | 'backupDir'>;

export function BackupSettings() {
  const q = useQuery('settings.get', {});
  const [draft, setDraft] = useState<BackupFields>();
  const [status, setStatus] = useState<{ kind: 'ok' | 'error'; text: string }>();
  useEffect(() => {
    if (q.data) setDraft(q.data);
  }, [q.data]);
  if (!draft) return null;
  const set = <K extends keyof BackupFields>(k: K, v: BackupFields[K]) => setDraft({ ...draft, [k]: v });
  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    const { backupSchedule, backupKeepDaily, backupKeepWeekly, backupDir } = draft;
    const r = await client.call('settings.update', {
      backupSchedule,
      backupKeepDaily,
      backupKeepWeekly,
      backupDir: backupDir.trim(),
    });
    setStatus(
      r.ok
        ? { kind: 'ok', text: 'Backup settings saved.' }
        : { kind: 'error', text: r.error.issues?.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') || r.error.message },
    );
  };
  return (
    <form className="settings-form backup-settings" onSubmit={save}>
      <fieldset>
        <legend>Backup settings</legend>
        <label className="field">
          <span>Back up automatically</span>
          <select
            value={draft.backupSchedule}
            onChange={(e) => set('backupSchedule', e.target.value as BackupFields['backupSchedule'])}
          >
            <option value="daily">Every day</option>
            <option value="weekly">Every week</option>
            <option value="off">Never</option>
          </select>
        </label>
        <p className="field-note">While Circa runs; a backup missed while it was closed is made at the next start.</p>
        <NumberField
          label="Days of daily backups"
          max={366}
          value={draft.backupKeepDaily}
          onChange={(n) => set('backupKeepDaily', n)}
        />
        <NumberField
          label="Weeks of weekly backups"
          max={520}
          value={draft.backupKeepWeekly}
          onChange={(n) => set('backupKeepWeekly', n)}
        />
        {/* The rule as it will act, from the values being edited: read before the next backup applies it. */}
        <p className="field-note" data-testid="backup-retention-rule">
          {describeRetention({ keepDaily: draft.backupKeepDaily, keepWeekly: draft.backupKeepWeekly, keepMonthly: KEEP_MONTHLY })}
        </p>
        <label className="field">
          <span>Backup folder</span>
          <input
            value={draft.backupDir}
            onChange={(e) => set('backupDir', e.target.value)}
            placeholder="The library's own backups folder"
            spellCheck={false}
          />
        </label>
        <p className="field-note">An absolute path, e.g. on an external drive.</p>
      </fieldset>
      <div className="form-actions">
        <button type="submit">Save backup settings</button>
        {status && (
          <span className={`flash flash-${status.kind}`} role={status.kind === 'error' ? 'alert' : 'status'}>
            {status.text}
          </span>
        )}
      </div>
    </form>
  );
}

function NumberField(p: { label: string; max: number; value: number; onChange(n: number): void }) {
  return (
    <label className="field">
      <span>{p.label}</span>
      <input type="number" min={0} max={p.max} value={p.value} onChange={(e) => p.onChange(Number(e.target.value))} />
    </label>
  );
}
