/**
 * The photo's undo, from the history main keeps: what Ctrl/Cmd+Z would reverse (kept live by
 * `photos.changed`), and undoing exactly that action — main refuses, with the reason, if another
 * window already undid it or anything changed since.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { client } from '../../api/client';
import { useEvent } from '../../api/hooks';
import type { ActionSummary } from '../../../../shared/contract';

export interface UndoHistory {
  /** The action undo would reverse, or null. */
  last: ActionSummary | null;
  refresh(): void;
  /** Undoes `last`; the answer says what was reversed, or why nothing was. */
  undo(): Promise<{ ok: boolean; text: string }>;
}

export function useUndoHistory(photoId: number): UndoHistory {
  const [last, setLast] = useState<{ photoId: number; action: ActionSummary | null }>();
  const seq = useRef(0);
  const refresh = useCallback(() => {
    const mine = ++seq.current;
    void client.call('history.last', { photoId }).then((r) => {
      if (mine === seq.current && r.ok) setLast({ photoId, action: r.value.action });
    });
  }, [photoId]);
  useEffect(refresh, [refresh]);
  useEvent('photos.changed', (e) => {
    if (e.all || e.ids.includes(photoId)) refresh();
  });

  const action = last?.photoId === photoId ? last.action : null;
  const undo = useCallback(async () => {
    // Ask main for the latest when this screen has not heard of one yet (a reload just happened).
    let target = action;
    if (!target) {
      const r = await client.call('history.last', { photoId });
      if (!r.ok) return { ok: false, text: r.error.message };
      target = r.value.action;
    }
    if (!target) return { ok: true, text: 'Nothing to undo on this photo.' };
    seq.current++; // an older read must not bring back the action just undone
    const r = await client.call('history.undo', { actionId: target.id, photoId });
    if (!r.ok) {
      refresh();
      return { ok: false, text: r.error.message };
    }
    setLast({ photoId, action: r.value.next });
    return { ok: true, text: r.value.message };
  }, [action, photoId, refresh]);

  return { last: action, refresh, undo };
}
