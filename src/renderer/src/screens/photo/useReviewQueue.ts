/**
 * Review mode: the photos whose estimate needs review, in the library's sort order, stepped through
 * one by one. The order is kept as first seen, so a photo that was just reviewed (and left the set)
 * still anchors "next" and "previous"; photos that newly need review join at the end.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { client } from '../../api/client';
import { useEvent } from '../../api/hooks';
import type { PhotoSort } from '../library/labels';
import { useSession } from '../../session/session';

const LIMIT = 500;

/** The first photo that needs review, or null when there is none. */
export async function firstToReview(sort: PhotoSort): Promise<{ id: number | null; error?: string }> {
  const r = await client.call('photos.list', { filter: 'needs_review', sort, limit: 1 });
  if (!r.ok) return { id: null, error: r.error.message };
  return { id: r.value.items[0]?.id ?? null };
}

export interface ReviewQueue {
  loaded: boolean;
  /** How many photos still need review (this one included while it does). */
  left: number;
  /** This photo still needs review. */
  currentNeedsReview: boolean;
  prev?: number;
  next?: number;
  error?: string;
}

export function useReviewQueue(enabled: boolean, currentId: number): ReviewQueue {
  // The library starts review mode in its own sort order (kept in the session).
  const sort = useSession((s) => s.reviewSort);
  const [state, setState] = useState<{
    order: number[];
    remaining: Set<number>;
    total: number;
    loaded: boolean;
    error?: string;
  }>({ order: [], remaining: new Set(), total: 0, loaded: false });
  const seq = useRef(0);

  const refresh = useCallback(() => {
    const mine = ++seq.current;
    void client.call('photos.list', { filter: 'needs_review', sort, limit: LIMIT }).then((r) => {
      if (mine !== seq.current) return;
      if (!r.ok) return setState((s) => ({ ...s, loaded: true, error: r.error.message }));
      const ids = r.value.items.map((p) => p.id);
      setState((s) => {
        const known = new Set(s.order);
        return {
          order: s.order.concat(ids.filter((id) => !known.has(id))),
          remaining: new Set(ids),
          total: r.value.total,
          loaded: true,
        };
      });
    });
  }, [sort]);

  useEffect(() => {
    if (!enabled) return setState({ order: [], remaining: new Set(), total: 0, loaded: false });
    refresh();
  }, [enabled, refresh]);

  useEvent('photos.changed', () => {
    if (enabled) refresh();
  });

  if (!enabled) return { loaded: false, left: 0, currentNeedsReview: false };
  // A photo opened in review mode that was never in the set still gets a place (at the start).
  const order = state.order.includes(currentId) ? state.order : [currentId, ...state.order];
  const at = order.indexOf(currentId);
  const next = order.slice(at + 1).find((id) => state.remaining.has(id));
  const prev = order
    .slice(0, at)
    .reverse()
    .find((id) => state.remaining.has(id));
  return {
    loaded: state.loaded,
    left: state.total,
    currentNeedsReview: state.remaining.has(currentId),
    prev,
    next,
    error: state.error,
  };
}
