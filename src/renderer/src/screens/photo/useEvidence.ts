/**
 * A photo's evidence and explained estimate (`evidence.list`) from the shared cache, re-read when
 * `photos.changed` names the photo (main announces it whenever its evidence or estimate changes).
 * A change the renderer made itself is shown at once from the call's answer, and then re-read: the
 * cache never lets a read that was in flight before the change overwrite it.
 */
import { useCallback, useRef } from 'react';
import { queryCache, useQuery } from '../../api/hooks';
import type { EstimateView, EvidenceItem } from '../../../../shared/contract';

type EvidenceAnswer = { items: EvidenceItem[]; estimate: EstimateView };

export interface EvidenceState {
  items: EvidenceItem[];
  estimate: EstimateView | undefined;
  /** The data is for this photo (not the previous one, while the new one loads). */
  photoId: number | undefined;
  error: string | undefined;
  loading: boolean;
  reload(): void;
  /** Shows the answer of a change at once (and re-reads). `item` null: it left the current set. */
  applyChange(change: { item?: EvidenceItem | null; removedId?: number; estimate: EstimateView }): void;
}

export function useEvidence(photoId: number, includeSuperseded: boolean): EvidenceState {
  const input = { photoId, includeSuperseded };
  const q = useQuery('evidence.list', input, [], {
    invalidateOn: ['photos.changed'],
    about: { 'photos.changed': [photoId] },
  });
  const latest = useRef(input);
  latest.current = input;

  const applyChange = useCallback<EvidenceState['applyChange']>(({ item, removedId, estimate }) => {
    const at = latest.current;
    const d = queryCache.snapshot('evidence.list', at).data as EvidenceAnswer | undefined;
    if (!d) return queryCache.refetch('evidence.list', at);
    let items = d.items;
    if (item) {
      const known = items.some((i) => i.id === item.id);
      items = known ? items.map((i) => (i.id === item.id ? item : i)) : [...items, item];
    }
    if (removedId != null) {
      items = at.includeSuperseded
        ? items.map((i) => (i.id === removedId ? { ...i, superseded: true } : i))
        : items.filter((i) => i.id !== removedId);
    }
    // Shown now; a read in flight is read again after it (setData), and then it is re-read.
    queryCache.setData('evidence.list', at, { ...d, items, estimate });
    queryCache.refetch('evidence.list', at);
  }, []);

  return {
    items: q.data?.items ?? [],
    estimate: q.data?.estimate,
    photoId: q.data ? photoId : undefined,
    error: q.error?.message,
    loading: q.loading,
    reload: q.reload,
    applyChange,
  };
}
