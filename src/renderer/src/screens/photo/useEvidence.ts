/**
 * A photo's evidence and explained estimate (`evidence.list`), kept live by `photos.changed`
 * (main announces the photo whenever its evidence or estimate changes). A change the renderer
 * made itself is shown at once from the call's answer, and then re-read: a read that was in flight
 * before the change can never overwrite it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { client } from '../../api/client';
import { useEvent } from '../../api/hooks';
import type { EstimateView, EvidenceItem } from '../../../../shared/contract';

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
  const [data, setData] = useState<{ photoId: number; items: EvidenceItem[]; estimate: EstimateView }>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const seq = useRef(0);
  const args = useRef({ photoId, includeSuperseded });
  args.current = { photoId, includeSuperseded };

  const reload = useCallback(() => {
    const mine = ++seq.current;
    const input = args.current;
    setLoading(true);
    void client.call('evidence.list', input).then((r) => {
      if (mine !== seq.current) return;
      setLoading(false);
      if (r.ok) {
        setData({ photoId: input.photoId, ...r.value });
        setError(undefined);
      } else setError(r.error.message);
    });
  }, []);

  useEffect(reload, [reload, photoId, includeSuperseded]);

  useEvent('photos.changed', (e) => {
    if (e.all || e.ids.includes(args.current.photoId)) reload();
  });

  const applyChange = useCallback<EvidenceState['applyChange']>(
    ({ item, removedId, estimate }) => {
      seq.current++; // whatever was loading started before this change
      setData((d) => {
        if (!d || d.photoId !== args.current.photoId) return d;
        let items = d.items;
        if (item) {
          const known = items.some((i) => i.id === item.id);
          items = known ? items.map((i) => (i.id === item.id ? item : i)) : [...items, item];
        }
        if (removedId != null) {
          items = args.current.includeSuperseded
            ? items.map((i) => (i.id === removedId ? { ...i, superseded: true } : i))
            : items.filter((i) => i.id !== removedId);
        }
        return { ...d, items, estimate };
      });
      reload();
    },
    [reload],
  );

  const current = data?.photoId === photoId ? data : undefined;
  return {
    items: current?.items ?? [],
    estimate: current?.estimate,
    photoId: current?.photoId,
    error,
    loading,
    reload,
    applyChange,
  };
}
