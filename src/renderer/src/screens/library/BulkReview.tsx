/**
 * Review one kind of finding across the selected photos at once ("accept every pending EXIF
 * bound"), as one action that Undo reverses as one (the undo history is kept in main).
 */
import { useEffect, useState } from 'react';
import { client } from '../../api/client';
import type { ActionSummary, CallInput } from '../../../../shared/contract';

type BulkInput = CallInput<'evidence.reviewMany'>;
/** The kinds of finding offered, as "source:kind". */
const FINDINGS: Record<string, { label: string; source: BulkInput['source']; kind?: BulkInput['kind'] }> = {
  'exif:bound': { label: 'EXIF “not after” bounds', source: 'exif', kind: 'bound' },
  'exif:estimate': { label: 'EXIF camera dates', source: 'exif', kind: 'estimate' },
  'ocr:bound': { label: 'OCR bounds (postmarks…)', source: 'ocr', kind: 'bound' },
  'ocr:estimate': { label: 'OCR dates', source: 'ocr', kind: 'estimate' },
  'ai:estimate': { label: 'AI estimates', source: 'ai', kind: 'estimate' },
};

/**
 * `selected`: the photos acted on (what the archivist can see of the selection). `selection`: the
 * archivist's own selection; the message and the undo are cleared only when that changes, not when
 * a reload of the grid (after this very review changed the photos) recomputes what is visible.
 */
export function BulkReview({ selected, selection }: { selected: ReadonlySet<number>; selection: ReadonlySet<number> }) {
  const [finding, setFinding] = useState('exif:bound');
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [undoable, setUndoable] = useState<ActionSummary | null>(null);
  useEffect(() => {
    setMsg(undefined);
    setUndoable(null);
  }, [selection]);

  const review = async (status: 'accepted' | 'rejected') => {
    const f = FINDINGS[finding];
    setBusy(true);
    const r = await client.call('evidence.reviewMany', { photoIds: [...selected], source: f.source, kind: f.kind, status });
    setBusy(false);
    if (!r.ok) return setMsg({ kind: 'error', text: r.error.message });
    setUndoable(r.value.action);
    setMsg({ kind: 'ok', text: r.value.action ? `${r.value.action.label}.` : `No pending ${f.label} in the selection.` });
  };

  const undo = async () => {
    if (!undoable) return;
    setBusy(true);
    const r = await client.call('history.undo', { actionId: undoable.id });
    setBusy(false);
    setUndoable(null);
    setMsg(r.ok ? { kind: 'ok', text: r.value.message } : { kind: 'error', text: r.error.message });
  };

  return (
    <span className="bulk-review" role="group" aria-label="Review the selected photos" data-testid="bulk-review">
      {msg && (
        <span className={msg.kind === 'error' ? 'error-text' : 'ok-text'} role="status">
          {msg.text}
        </span>
      )}
      {undoable && (
        <button className="link-button" onClick={() => void undo()} disabled={busy} title={`Undo: ${undoable.label}`}>
          Undo
        </button>
      )}
      <select
        aria-label="Findings to review"
        value={finding}
        onChange={(e) => setFinding(e.target.value)}
        className="small-select"
      >
        {Object.entries(FINDINGS).map(([key, f]) => (
          <option key={key} value={key}>
            Pending {f.label}
          </option>
        ))}
      </select>
      <button onClick={() => void review('accepted')} disabled={busy}>
        Accept all
      </button>
      <button onClick={() => void review('rejected')} disabled={busy}>
        Reject all
      </button>
    </span>
  );
}
