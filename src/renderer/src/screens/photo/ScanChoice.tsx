/**
 * Is this file a scan? What Circa decided and why, and the archivist's override: a scan's EXIF
 * date only says the photo is not later than the scan; a camera original's is when it was taken.
 * Changing it re-reads the EXIF dates at once, as one action that Ctrl+Z can undo.
 */
import { useState } from 'react';
import { client } from '../../api/client';
import type { PhotoDetails, ScanOverride } from '../../../../shared/contract';
import { SCAN_POLICY_LABEL } from '../scanLabels';

type Choice = ScanOverride | 'auto';

export function ScanChoice({ photo, onChanged }: { photo: PhotoDetails; onChanged(message: string): void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const choose = async (choice: Choice) => {
    setBusy(true);
    setError(undefined);
    const r = await client.call('photos.setScanOverride', { id: photo.id, override: choice === 'auto' ? null : choice });
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    onChanged(
      r.value.action
        ? `${r.value.action.label}: its EXIF dates were read again${r.value.isScan ? ' as a scan’s' : ' as a camera’s'}.`
        : 'Nothing changed.',
    );
  };
  const auto = photo.scanPolicy ? `As the import said: ${SCAN_POLICY_LABEL[photo.scanPolicy].toLowerCase()}` : 'As detected';
  return (
    <>
      <dt>Scan</dt>
      <dd className="scan-choice" data-testid="scan-choice">
        <span data-testid="scan-verdict">
          {photo.isScan == null ? '—' : photo.isScan ? 'Yes: its dates are scan dates' : 'No: a camera original'}
        </span>
        {photo.scanReason && <span className="muted small scan-reason">{photo.scanReason}</span>}
        <label className="small scan-override">
          <span>Treat as</span>
          <select
            aria-label="Treat this photo as"
            value={photo.scanOverride ?? 'auto'}
            disabled={busy}
            onChange={(e) => void choose(e.target.value as Choice)}
          >
            <option value="auto">{auto}</option>
            <option value="scan">A scan (EXIF date = when scanned)</option>
            <option value="original">A camera original (EXIF date = when taken)</option>
          </select>
        </label>
        {error && (
          <span className="error-text small" role="alert">
            {error}
          </span>
        )}
      </dd>
    </>
  );
}
