/** "Restore this backup?": what happens, what is kept; the restore runs while the dialog waits. */
import { useState } from 'react';
import { client } from '../../api/client';
import { Modal } from '../../components/Modal';
import type { BackupEntry, RestoreReport } from '../../../../shared/contract';
import { plural } from '../../format';

export function RestoreDialog({
  backup,
  onClose,
  onRestored,
}: {
  backup: BackupEntry;
  onClose(): void;
  onRestored(r: RestoreReport): void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const restore = async () => {
    setBusy(true);
    setError(undefined);
    const r = await client.call('backups.restore', { name: backup.name });
    setBusy(false);
    if (r.ok) onRestored(r.value);
    else setError(r.error.message);
  };
  return (
    <Modal title="Restore this backup?" onClose={busy ? () => {} : onClose} testId="restore-dialog">
      <p>
        The library goes back to how it was on <strong>{new Date(backup.createdAt).toLocaleString()}</strong>
        {backup.photos != null && <> ({plural(backup.photos, 'photo')})</>}. Dates, evidence, reviews and notes made since then
        are not in this backup.
      </p>
      <ul className="restore-points">
        <li>The library as it is now is kept as a safety copy in its backups folder, so this can be undone.</li>
        <li>Background jobs stop while the backup is swapped in; jobs that were running when it was taken run again.</li>
        <li>Your photo files are not touched. Missing thumbnails are made again.</li>
      </ul>
      {!backup.verified && (
        <p className="flash flash-warn">This backup was not verified by Circa; it is checked before anything is replaced.</p>
      )}
      {error && (
        <p className="flash flash-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions modal-actions">
        <button onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button className="primary" onClick={() => void restore()} disabled={busy}>
          {busy ? 'Restoring…' : 'Restore library'}
        </button>
      </div>
    </Modal>
  );
}
