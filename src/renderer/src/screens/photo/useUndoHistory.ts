/**
 * The photo's undo, from the history main keeps: what Ctrl/Cmd+Z would reverse (`history.last`
 * from the shared cache, re-read when `photos.changed` names the photo), and undoing exactly that
 * action — main refuses, with the reason, if another window already undid it or anything changed
 * since.
 *
 * Undo acts on the latest action as of the key press, never on the answer on screen: a review
 * shows at once from its call's answer while its history is re-read behind it, and undoing the
 * answer read before it (the acceptance before a rejection) is refused by main ("a later action
 * comes first"), leaving the rejection in place. `queryCache.current` waits for a read sent after
 * every change the screen knows of (e2e/undo-after-review.spec.ts holds that read back).
 */
import { useCallback } from 'react';
import { client } from '../../api/client';
import { queryCache, useQuery } from '../../api/hooks';
import type { ActionSummary, CallOutput } from '../../../../shared/contract';

export interface UndoHistory {
  /** The action undo would reverse, or null. */
  last: ActionSummary | null;
  /** This screen changed the photo: read its history again. */
  refresh(): void;
  /** Undoes the latest action; the answer says what was reversed, or why nothing was. */
  undo(): Promise<{ ok: boolean; text: string }>;
}

export function useUndoHistory(photoId: number): UndoHistory {
  const q = useQuery('history.last', { photoId }, [], {
    invalidateOn: ['photos.changed'],
    about: { 'photos.changed': [photoId] },
  });
  const refresh = useCallback(() => queryCache.refetch('history.last', { photoId }), [photoId]);

  const undo = useCallback(async () => {
    const now = await queryCache.current('history.last', { photoId });
    if (now.error) return { ok: false, text: now.error.message };
    const target = (now.data as CallOutput<'history.last'> | undefined)?.action;
    if (!target) return { ok: true, text: 'Nothing to undo on this photo.' };
    const r = await client.call('history.undo', { actionId: target.id, photoId });
    if (!r.ok) {
      refresh();
      return { ok: false, text: r.error.message };
    }
    queryCache.setData('history.last', { photoId }, { action: r.value.next });
    return { ok: true, text: r.value.message };
  }, [photoId, refresh]);

  return { last: q.data?.action ?? null, refresh, undo };
}
