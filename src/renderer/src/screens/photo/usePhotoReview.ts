/**
 * Reviewing one photo's findings: which finding has the keyboard's attention, accept / reject /
 * reset with an optional note, deleting a manual constraint, undo (from main's history), and the
 * one-line message that says what happened.
 */
import { useEffect, useMemo, useState } from 'react';
import { client } from '../../api/client';
import type { EvidenceItem } from '../../../../shared/contract';
import { orderItems } from './EvidenceList';
import type { ReviewStatus } from './evidenceFormat';
import type { EvidenceState } from './useEvidence';
import { useUndoHistory, type UndoHistory } from './useUndoHistory';

export type Flash = { kind: 'ok' | 'error'; text: string };

export interface PhotoReview {
  /** The current findings in display (and keyboard) order. */
  current: EvidenceItem[];
  focusedId: number | null;
  focusItem(itemId: number, moveDomFocus?: boolean): void;
  editingId: number | null;
  setEditingId(id: number | null): void;
  message: Flash | undefined;
  setMessage(m: Flash | undefined): void;
  reviewItem(item: EvidenceItem, status: ReviewStatus, note?: string | null): Promise<void>;
  /** A/R/U on the focused finding; accept and reject move on to the next one still pending. */
  decideFocused(status: ReviewStatus): void;
  removeManual(item: EvidenceItem): Promise<void>;
  history: UndoHistory;
  undo(): Promise<void>;
}

export function usePhotoReview(photoId: number, ev: EvidenceState): PhotoReview {
  const [message, setMessage] = useState<Flash>();
  const current = useMemo(() => orderItems(ev.items).filter((i) => !i.superseded), [ev.items]);
  const [chosenId, setChosenId] = useState<number | null>(null);
  const [editingId, setEditingId] = useState<number | null>(null);
  const history = useUndoHistory(photoId);
  useEffect(() => {
    setChosenId(null);
    setEditingId(null);
    setMessage(undefined);
  }, [photoId]);

  const focusedId = current.some((i) => i.id === chosenId)
    ? chosenId
    : ((current.find((i) => i.reviewStatus === 'pending') ?? current[0])?.id ?? null);

  const focusItem = (itemId: number, moveDomFocus = false) => {
    setChosenId(itemId);
    if (moveDomFocus) requestAnimationFrame(() => document.getElementById(`evidence-item-${itemId}`)?.focus());
  };

  const reviewItem = async (item: EvidenceItem, status: ReviewStatus, note?: string | null) => {
    // Omitting the note would clear it: keep the one it has unless a new one was typed.
    const nextNote = note !== undefined ? note?.trim() || null : item.reviewNote;
    if (status === item.reviewStatus && nextNote === item.reviewNote) return;
    const r = await client.call('evidence.review', { id: item.id, status, note: nextNote ?? undefined });
    if (!r.ok) return setMessage({ kind: 'error', text: r.error.message });
    ev.applyChange(r.value);
    history.refresh();
    setMessage(undefined);
  };

  const decideFocused = (status: ReviewStatus) => {
    const at = current.findIndex((i) => i.id === focusedId);
    const item = at >= 0 ? current[at] : undefined;
    if (!item) return;
    void reviewItem(item, status);
    if (status !== 'pending') {
      const after = [...current.slice(at + 1), ...current.slice(0, at)].find((i) => i.reviewStatus === 'pending');
      if (after) focusItem(after.id, true);
    }
  };

  const removeManual = async (item: EvidenceItem) => {
    const r = await client.call('evidence.removeManual', { id: item.id });
    if (!r.ok) return setMessage({ kind: 'error', text: r.error.message });
    if (editingId === item.id) setEditingId(null);
    ev.applyChange({ removedId: item.id, estimate: r.value.estimate });
    history.refresh();
    setMessage({ kind: 'ok', text: `Constraint #${item.id} deleted (kept in the history; Ctrl+Z brings it back).` });
  };

  const undo = async () => {
    const r = await history.undo();
    setMessage({ kind: r.ok ? 'ok' : 'error', text: r.text });
    if (r.ok) ev.reload();
  };

  return {
    current,
    focusedId,
    focusItem,
    editingId,
    setEditingId,
    message,
    setMessage,
    reviewItem,
    decideFocused,
    removeManual,
    history,
    undo,
  };
}
