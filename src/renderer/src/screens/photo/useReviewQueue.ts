/**
 * Review mode: the photos whose estimate needs review, in the library's sort order, stepped through
 * one by one. The order is kept as first seen, so a photo that was just reviewed (and left the set)
 * still anchors "next" and "previous"; photos that newly need review join at the end. The set is
 * `photos.list` (needs review) from the shared cache, re-read on `photos.changed`.
 */
import { useMemo, useRef } from 'react';
import { client } from '../../api/client';
import { useQuery } from '../../api/hooks';
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
  const q = useQuery('photos.list', { filter: 'needs_review', sort, limit: LIMIT }, [], {
    enabled,
    invalidateOn: ['photos.changed'],
  });
  // The order as first seen: each answer appends the photos that newly need review.
  const seen = useRef<{ sort: PhotoSort; order: number[] }>({ sort, order: [] });
  if (!enabled || seen.current.sort !== sort) seen.current = { sort, order: [] };
  const ids = useMemo(() => q.data?.items.map((p) => p.id) ?? [], [q.data]);
  const remaining = useMemo(() => new Set(ids), [ids]);
  const known = new Set(seen.current.order);
  if (ids.some((id) => !known.has(id))) seen.current.order = seen.current.order.concat(ids.filter((id) => !known.has(id)));

  if (!enabled) return { loaded: false, left: 0, currentNeedsReview: false };
  // A photo opened in review mode that was never in the set still gets a place (at the start).
  const order = seen.current.order.includes(currentId) ? seen.current.order : [currentId, ...seen.current.order];
  const at = order.indexOf(currentId);
  const next = order.slice(at + 1).find((id) => remaining.has(id));
  const prev = order
    .slice(0, at)
    .reverse()
    .find((id) => remaining.has(id));
  return {
    loaded: q.data !== undefined || q.error !== undefined,
    left: q.data?.total ?? 0,
    currentNeedsReview: remaining.has(currentId),
    prev,
    next,
    error: q.error?.message,
  };
}
