/**
 * Removing the selected photos from the library (never their files): asked once in place, then
 * said above the grid with an Undo that brings them back as they were, for as long as main allows.
 */
import { useCallback, useEffect, useState } from 'react';
import { client } from '../../api/client';

interface Notice {
  kind: 'ok' | 'error';
  text: string;
  undo?: { first: number; last: number; until: number };
}

export interface Removal {
  notice?: Notice;
  busy: boolean;
  remove(ids: number[]): Promise<boolean>;
  undo(): Promise<void>;
  dismiss(): void;
}

const photos = (n: number) => `${n.toLocaleString()} photo${n === 1 ? '' : 's'}`;

export function useRemoval(): Removal {
  const [notice, setNotice] = useState<Notice>();
  const [busy, setBusy] = useState(false);

  // The offer to undo goes when main would refuse it.
  useEffect(() => {
    if (!notice?.undo) return;
    const t = setTimeout(() => setNotice((n) => (n === notice ? { ...n, undo: undefined } : n)), notice.undo.until - Date.now());
    return () => clearTimeout(t);
  }, [notice]);

  const remove = useCallback(async (ids: number[]) => {
    setBusy(true);
    const r = await client.call('photos.remove', { ids });
    setBusy(false);
    if (!r.ok) {
      setNotice({ kind: 'error', text: r.error.message });
      return false;
    }
    const { removed, undo, undoUntil } = r.value;
    setNotice({
      kind: 'ok',
      text: `Removed ${photos(removed)} from the library; the files are untouched, and the evidence and reviews are kept in the audit ledger.`,
      undo: undo && undoUntil ? { ...undo, until: undoUntil } : undefined,
    });
    return true;
  }, []);

  const undo = useCallback(async () => {
    if (!notice?.undo) return;
    setBusy(true);
    const r = await client.call('photos.undoRemove', { first: notice.undo.first, last: notice.undo.last });
    setBusy(false);
    if (!r.ok) return setNotice({ kind: 'error', text: r.error.message });
    const { restored, skipped } = r.value;
    setNotice({
      kind: 'ok',
      text: `Brought back ${photos(restored)}${skipped ? ` (${photos(skipped)} already back in the library)` : ''}.`,
    });
  }, [notice]);

  return { notice, busy, remove, undo, dismiss: () => setNotice(undefined) };
}

/** The notice above the grid: what was removed, and Undo while it can be undone. */
export function RemovalNotice({ removal }: { removal: Removal }) {
  const { notice } = removal;
  if (!notice) return null;
  return (
    <div
      className={`flash ${notice.kind === 'error' ? 'flash-error' : 'flash-ok'} pane-flash`}
      role="status"
      data-testid="removal-notice"
    >
      {notice.text}{' '}
      {notice.undo && (
        <button className="link-button" onClick={() => void removal.undo()} disabled={removal.busy}>
          Undo
        </button>
      )}{' '}
      <button className="link-button" onClick={removal.dismiss} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}

/** "Remove…" in the selection bar, confirmed in place: no dialog to hunt for. */
export function RemoveButton({ count, busy, onConfirm }: { count: number; busy: boolean; onConfirm(): void }) {
  const [asking, setAsking] = useState(false);
  useEffect(() => setAsking(false), [count]);
  if (!asking) {
    return (
      <button
        onClick={() => setAsking(true)}
        disabled={!count || busy}
        title="Remove from the library; the files stay where they are"
      >
        Remove…
      </button>
    );
  }
  return (
    <span className="remove-confirm" role="group" aria-label="Confirm removal">
      <span>Remove {photos(count)} from the library? The files stay on disk.</span>
      <button className="danger" disabled={busy} onClick={onConfirm}>
        Remove
      </button>
      <button onClick={() => setAsking(false)}>Keep</button>
    </span>
  );
}
