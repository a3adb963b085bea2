/**
 * The grid's data: keyset pages of `photos.list`, loaded in order only as far as the grid has
 * been scrolled (never the whole library up front). `total` sizes the grid so the scrollbar is
 * honest; indexes at or beyond `rows.length` are placeholders until their page arrives.
 *
 * Kept live by `photos.changed` (already coalesced by main): for sort=imported the photos named are
 * re-read by id, new ones put in place (id order), with only the count asked beside them; for other
 * sorts, or when main says `all`, the loaded range that is in view is re-read and swapped in whole,
 * so the grid never blanks. Refreshes are serialised and merged while one is in flight.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { client } from '../../api/client';
import { useEvent } from '../../api/hooks';
import type { CallInput, PhotoSummary } from '../../../../shared/contract';
import type { PhotoFilter, PhotoSort, YearMode } from './labels';

type Cursor = NonNullable<CallInput<'photos.list'>['cursor']>;

export interface PhotoQuery {
  sort: PhotoSort;
  filter: PhotoFilter;
  search: string;
  /** Photos dated in these years (either may be left open), in the sense of `yearMode`. */
  yearFrom?: number;
  yearTo?: number;
  yearMode: YearMode;
  /** Clue-only photos sort and filter by their clues (off: they are undated). */
  includeClues: boolean;
}

const PAGE = 200;
const BIG_PAGE = 500;

export interface PhotoListView {
  rows: PhotoSummary[];
  /** How many rows the grid is sized for: every match, or when `exact` is false a lower bound that grows as pages load. */
  total: number;
  /** False when a search or a year range matched more than main counts ("1,000+"). */
  exact: boolean;
  /** The first page for the current query has arrived. */
  ready: boolean;
  error?: string;
}

export interface PhotoList extends PhotoListView {
  /** The grid shows indexes up to `lastIndex`: load pages until they are covered. */
  ensure(lastIndex: number): void;
  indexOf(id: number): number;
  reload(): void;
  /** Re-reads these loaded rows in place (a tile's job changed; the photo itself did not). */
  refreshRows(ids: number[]): void;
}

interface Store {
  rows: PhotoSummary[];
  index: Map<number, number>;
  cursor: Cursor | null;
  total: number;
  exact: boolean;
  /** Bumped by a query change and by every wholesale swap: older async work discards its result. */
  gen: number;
  pumpingGen: number;
  want: number;
  refreshing: boolean;
  pendingAll: boolean;
  pendingIds: Set<number>;
}

/** The grid's size: the total, or past a lower bound one page more than is loaded while more remains. */
function gridSize(total: number, exact: boolean, loaded: number, cursor: Cursor | null): number {
  return exact ? Math.max(total, loaded) : Math.max(total, loaded + (cursor ? PAGE : 0));
}

function indexRows(rows: PhotoSummary[]): Map<number, number> {
  const m = new Map<number, number>();
  rows.forEach((p, i) => m.set(p.id, i));
  return m;
}

export function usePhotoList(query: PhotoQuery): PhotoList {
  const [view, setView] = useState<PhotoListView>({ rows: [], total: 0, exact: true, ready: false });
  // One mutable store for the async loaders (what they read must be current, not a render's copy).
  const [s] = useState<Store>(() => ({
    rows: [],
    index: new Map(),
    cursor: null,
    total: 0,
    exact: true,
    gen: 0,
    pumpingGen: -1,
    want: PAGE,
    refreshing: false,
    pendingAll: false,
    pendingIds: new Set(),
  }));

  const base = useMemo(
    () => ({
      sort: query.sort,
      filter: query.filter,
      search: query.search.trim() || undefined,
      yearFrom: query.yearFrom,
      yearTo: query.yearTo,
      yearMode: query.yearMode,
      includeClues: query.includeClues,
    }),
    [query.sort, query.filter, query.search, query.yearFrom, query.yearTo, query.yearMode, query.includeClues],
  );
  const baseRef = useRef(base);
  baseRef.current = base;

  const publish = useCallback(() => setView({ rows: s.rows, total: s.total, exact: s.exact, ready: true }), [s]);
  const fail = useCallback((message: string) => setView((v) => ({ ...v, ready: true, error: message })), []);

  /** Appends the following pages while the grid wants rows that are not loaded yet. */
  const pump = useCallback(async () => {
    const gen = s.gen;
    if (s.pumpingGen === gen) return;
    s.pumpingGen = gen;
    try {
      while (gen === s.gen && s.cursor && s.rows.length < s.want) {
        const missing = s.want - s.rows.length;
        const r = await client.call('photos.list', {
          ...baseRef.current,
          cursor: s.cursor,
          limit: missing > PAGE ? BIG_PAGE : PAGE,
        });
        if (gen !== s.gen) return;
        if (!r.ok) return fail(r.error.message);
        const fresh = r.value.items.filter((p) => !s.index.has(p.id));
        const start = s.rows.length;
        fresh.forEach((p, i) => s.index.set(p.id, start + i));
        s.rows = s.rows.concat(fresh);
        s.cursor = r.value.items.length ? r.value.nextCursor : null;
        s.exact = r.value.totalExact;
        s.total = gridSize(r.value.total, s.exact, s.rows.length, s.cursor);
        publish();
      }
    } finally {
      if (s.pumpingGen === gen) s.pumpingGen = -1;
    }
  }, [s, publish, fail]);

  /** Swaps in a whole new loaded range (and cancels whatever was loading against the old one). */
  const commit = useCallback(
    (rows: PhotoSummary[], cursor: Cursor | null, total: number, exact: boolean) => {
      s.gen++;
      s.rows = rows;
      s.index = indexRows(rows);
      s.cursor = cursor;
      s.exact = exact;
      s.total = gridSize(total, exact, rows.length, cursor);
      publish();
      void pump();
    },
    [s, publish, pump],
  );

  /** Reads the first `need` rows of the current query, page by page; null when superseded. */
  const fetchUpTo = useCallback(
    async (needFor: number | ((total: number) => number), gen: number) => {
      const rows: PhotoSummary[] = [];
      const seen = new Set<number>();
      let cursor: Cursor | undefined;
      let need = typeof needFor === 'number' ? needFor : PAGE;
      for (;;) {
        const limit = Math.min(BIG_PAGE, Math.max(PAGE, need - rows.length));
        const r = await client.call('photos.list', { ...baseRef.current, cursor, limit });
        if (gen !== s.gen) return null;
        if (!r.ok) return { error: r.error.message };
        for (const p of r.value.items) {
          if (seen.has(p.id)) continue;
          seen.add(p.id);
          rows.push(p);
        }
        cursor = r.value.nextCursor ?? undefined;
        if (typeof needFor === 'function') need = needFor(r.value.total);
        if (!cursor || !r.value.items.length || rows.length >= need)
          return { rows, cursor: cursor ?? null, total: r.value.total, exact: r.value.totalExact };
      }
    },
    [s],
  );

  // A new query: keep showing the old rows (no flash) until the first page of the new one arrives.
  useEffect(() => {
    const gen = ++s.gen;
    s.cursor = null; // nothing may append old-query pages meanwhile
    s.want = PAGE;
    setView((v) => ({ ...v, ready: false, error: undefined }));
    void fetchUpTo(PAGE, gen).then((res) => {
      if (!res) return;
      if ('error' in res) return fail(res.error!);
      commit(res.rows, res.cursor, res.total, res.exact);
    });
  }, [base, s, fetchUpTo, commit, fail]);

  const reloadVisible = useCallback(async () => {
    const gen = s.gen;
    const covered = Math.max(PAGE, Math.min(s.want, s.rows.length));
    const before = s.total;
    // What is in view may have moved down by as many photos as arrived: keep it loaded.
    const res = await fetchUpTo((total) => covered + Math.max(0, total - before), gen);
    if (!res) return;
    if ('error' in res) return fail(res.error!);
    commit(res.rows, res.cursor, res.total, res.exact);
  }, [s, fetchUpTo, commit, fail]);

  /**
   * sort=imported ("newest imported first" is id order): re-read the photos named, loaded or not,
   * in one request, and ask only for the count beside it. A named photo that came back and falls
   * in the loaded range (newer than its last row, or all is loaded) is swapped in or put in place;
   * a loaded one that did not come back has left the filter or the search.
   */
  const refreshIds = useCallback(
    async (ids: number[]) => {
      const gen = s.gen;
      if (!s.rows.length || ids.length > 500) return reloadVisible();
      const [named, count] = await Promise.all([
        client.call('photos.list', { ...baseRef.current, ids, limit: 500 }),
        client.call('photos.list', { ...baseRef.current, limit: 1 }),
      ]);
      if (gen !== s.gen) return;
      if (!named.ok) return fail(named.error.message);
      if (!count.ok) return fail(count.error.message);
      const byId = new Map(named.value.items.map((p) => [p.id, p]));
      const oldest = s.rows[s.rows.length - 1].id;
      const inRange = (id: number) => !s.cursor || id > oldest;
      const wanted = new Set(ids);
      const kept = s.rows.filter((p) => byId.has(p.id) || !wanted.has(p.id));
      const arrived = named.value.items.filter((p) => !s.index.has(p.id) && inRange(p.id));
      s.rows = kept.map((p) => byId.get(p.id) ?? p);
      if (arrived.length) s.rows = s.rows.concat(arrived).sort((a, b) => b.id - a.id);
      s.index = indexRows(s.rows);
      s.exact = count.value.totalExact;
      s.total = gridSize(count.value.total, s.exact, s.rows.length, s.cursor);
      publish();
    },
    [s, reloadVisible, publish, fail],
  );

  const drain = useCallback(async () => {
    if (s.refreshing) return;
    s.refreshing = true;
    try {
      while (s.pendingAll || s.pendingIds.size) {
        if (s.pendingAll || baseRef.current.sort !== 'imported') {
          s.pendingAll = false;
          s.pendingIds.clear();
          await reloadVisible();
        } else {
          const ids = [...s.pendingIds];
          s.pendingIds.clear();
          await refreshIds(ids);
        }
      }
    } finally {
      s.refreshing = false;
    }
  }, [s, reloadVisible, refreshIds]);

  // Not through the query cache, on purpose: this is a paged list patched row by row. An event
  // re-reads only the photos it names (photos.get by ids) into the loaded pages; a cache entry per
  // page would re-read whole pages of 200 on every event of an import.
  useEvent('photos.changed', (e) => {
    if (e.all) s.pendingAll = true;
    else e.ids.forEach((id) => s.pendingIds.add(id));
    void drain();
  });

  const ensure = useCallback(
    (lastIndex: number) => {
      s.want = Math.max(PAGE, lastIndex + 1);
      if (s.cursor && s.rows.length < s.want) void pump();
    },
    [s, pump],
  );

  const reread = useCallback(
    async (ids: number[]) => {
      const gen = s.gen;
      const loaded = ids.filter((id) => s.index.has(id)).slice(0, 500);
      if (!loaded.length) return;
      const r = await client.call('photos.list', { ...baseRef.current, ids: loaded, limit: 500 });
      if (gen !== s.gen || !r.ok) return;
      const byId = new Map(r.value.items.map((p) => [p.id, p]));
      // Rows that left the query are the photos.changed path's business; only swap in what came back.
      s.rows = s.rows.map((p) => byId.get(p.id) ?? p);
      publish();
    },
    [s, publish],
  );

  const refreshRows = useCallback((ids: number[]) => void reread(ids), [reread]);
  const indexOf = useCallback((id: number) => s.index.get(id) ?? -1, [s]);
  const reload = useCallback(() => {
    s.pendingAll = true;
    void drain();
  }, [s, drain]);

  return { ...view, ensure, indexOf, reload, refreshRows };
}
