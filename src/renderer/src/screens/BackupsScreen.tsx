/**
 * Backups: the list (date, why, photos, size, verified), Back up now with its progress, restore
 * with a confirmation, and the backup settings (schedule, how many to keep, the folder).
 */
import { useState } from 'react';
import { client } from '../api/client';
import { useQuery } from '../api/hooks';
import { isActive, useWatchedJob } from '../api/useWatchedJob';
import type { BackupEntry, RestoreReport } from '../../../shared/contract';
import { formatBytes, plural } from '../format';
import { RestoreDialog } from './backups/RestoreDialog';
import { BackupSettings } from './backups/BackupSettings';

export const REASON_LABEL: Record<NonNullable<BackupEntry['reason']>, string> = {
  manual: 'Back up now',
  scheduled: 'Scheduled',
  'pre-migration': 'Before an update',
  'before-restore': 'Before a restore',
};

export function BackupsScreen() {
  const list = useQuery('backups.list', {}, [], { invalidateOn: ['backups.changed'] });
  const [jobId, setJobId] = useState<number | null>(null);
  const job = useWatchedJob(jobId);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [restoring, setRestoring] = useState<BackupEntry>();
  const [restored, setRestored] = useState<RestoreReport>();

  const backUpNow = async () => {
    setMessage(undefined);
    const r = await client.call('jobs.enqueue', { type: 'backup', payload: {} });
    if (r.ok) setJobId(r.value.job.id);
    else setMessage({ kind: 'error', text: r.error.message });
  };

  const items = list.data?.items ?? [];
  return (
    <section className="screen backups-screen" aria-labelledby="backups-title">
      <header className="screen-head">
        <h1 id="backups-title" tabIndex={-1}>
          Backups
        </h1>
        <div className="toolbar">
          <button className="primary" onClick={() => void backUpNow()} disabled={isActive(job)}>
            Back up now
          </button>
        </div>
      </header>
      <p className="field-note">
        A backup is a verified copy of the library database: your dates, evidence, reviews and notes. Photos stay where they are
        and are not copied; thumbnails are made again after a restore. Folder:{' '}
        <span className="mono">{list.data?.folder ?? '…'}</span>
      </p>
      {job && <BackupJobStatus status={job.status} progress={job.progress} result={job.resultSummary} error={job.errorMessage} />}
      {message && (
        <p className={`flash flash-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      {restored && (
        <p className="flash flash-ok" role="status" data-testid="restore-report">
          Restored {plural(restored.photos, 'photo')} from {restored.restoredFrom.split(/[\\/]/).pop()}.
          {restored.requeued > 0 &&
            ` ${plural(restored.requeued, 'job')} that ${restored.requeued === 1 ? 'was' : 'were'} running then will run again.`}
          {restored.thumbnailsQueued > 0 && ` ${plural(restored.thumbnailsQueued, 'thumbnail')} will be made again.`}
          {restored.safetyCopy && ` The library as it was is kept as ${restored.safetyCopy.split(/[\\/]/).pop()}.`}
        </p>
      )}
      {list.data?.problem && (
        <p className="flash flash-error" role="alert">
          {list.data.problem}
        </p>
      )}
      {list.error && <p className="flash flash-error">{list.error.message}</p>}
      {items.length === 0 && list.data ? (
        <div className="empty">No backups yet.</div>
      ) : (
        <table className="backups-table" data-testid="backups-table">
          <thead>
            <tr>
              <th>Taken</th>
              <th>Why</th>
              <th className="num">Photos</th>
              <th className="num">Size</th>
              <th>Checked</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {items.map((b) => (
              <tr key={b.name} data-testid="backup-row" title={b.name}>
                <td>{new Date(b.createdAt).toLocaleString()}</td>
                <td>{b.reason ? REASON_LABEL[b.reason] : 'Copied in'}</td>
                <td className="num">{b.photos?.toLocaleString() ?? '—'}</td>
                <td className="num">{formatBytes(b.size)}</td>
                <td>
                  {b.verified ? (
                    <span className="ok-text">✓ Verified</span>
                  ) : (
                    <span className="muted" title="Circa has not checked this copy; a restore checks it first">
                      Not checked
                    </span>
                  )}
                </td>
                <td className="actions">
                  <button onClick={() => setRestoring(b)}>Restore…</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <BackupSettings />
      {restoring && (
        <RestoreDialog
          backup={restoring}
          onClose={() => setRestoring(undefined)}
          onRestored={(report) => {
            setRestoring(undefined);
            setRestored(report);
            list.reload();
          }}
        />
      )}
    </section>
  );
}

function BackupJobStatus(p: { status: string; progress: number | null; result: string | null; error: string | null }) {
  if (p.status === 'queued' || p.status === 'running')
    return (
      <p className="flash flash-warn backup-progress" role="status">
        Backing up… <progress max={1} value={p.progress ?? undefined} aria-label="Backup progress" />
      </p>
    );
  if (p.status === 'success')
    return (
      <p className="flash flash-ok" role="status" data-testid="backup-done">
        Backed up: {p.result}
      </p>
    );
  return (
    <p className="flash flash-error" role="alert">
      The backup {p.status === 'cancelled' ? 'was cancelled' : `failed: ${p.error ?? ''}`}
    </p>
  );
}
