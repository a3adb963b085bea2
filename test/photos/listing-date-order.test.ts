/**
 * Paging by date, checked against the order the README promises, worked out here in plain code
 * (not by another ORDER BY): dated photos by the known end of their estimate, a closed estimate
 * before an open one on the same day, ties by id; then undated and conflicting photos by id. Page
 * sizes from 1 up put page ends inside runs of tied keys and on the last dated photo, where a page
 * goes on from the dated photos to the undated ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { PhotoListing, type PhotoQuery } from '../../src/main/catalogue/photo-listing';
import { openTestCore } from '../support/core';

interface Seeded {
  id: number;
  status: 'estimated' | 'needs_review' | 'undated' | 'conflict';
  earliest: number | null;
  latest: number | null;
}

let core: Core;
let listing: PhotoListing;
const photos: Seeded[] = [];

beforeAll(() => {
  core = openTestCore({ runJobs: false });
  const insert = core.db.sqlite.prepare(
    `INSERT INTO photos (sha256, path, filename, size, imported_at, updated_at, estimate_status, estimate_earliest, estimate_latest)
     VALUES (?, ?, ?, 1, 0, 0, ?, ?, ?)`,
  );
  // Undated, conflicting and dated photos interleaved, so that each run of tied keys and the
  // undated tail have ids spread across the library.
  const kinds: Omit<Seeded, 'id'>[] = [
    { status: 'estimated', earliest: 19250101, latest: 19251231 }, // tied with each other…
    { status: 'undated', earliest: null, latest: null },
    { status: 'estimated', earliest: 19250101, latest: null }, // …the same day, open: after the closed ones
    { status: 'needs_review', earliest: 19250101, latest: 19301231 },
    { status: 'conflict', earliest: null, latest: null },
    { status: 'estimated', earliest: null, latest: 19120630 }, // "before 1912": its known end
    { status: 'estimated', earliest: 18900101, latest: 18991231 },
    { status: 'needs_review', earliest: null, latest: 19250101 }, // open, on the tied day
  ];
  core.db.sqlite.transaction(() => {
    for (let i = 0; i < 64; i++) {
      const k = kinds[(i * 5) % kinds.length];
      const r = insert.run(`${i}`.padStart(64, '0'), `/p/${i}.jpg`, `${i}.jpg`, k.status, k.earliest, k.latest);
      photos.push({ id: Number(r.lastInsertRowid), ...k });
    }
  })();
  listing = new PhotoListing(core.db.sqlite);
});
afterAll(() => core.close());

/** The promised order, in plain code. */
function expected(keep: (p: Seeded) => boolean = () => true): number[] {
  const key = (p: Seeded) => {
    const end = p.earliest ?? p.latest;
    return end === null ? null : end * 2 + (p.earliest === null || p.latest === null ? 1 : 0);
  };
  const dated = photos.filter((p) => keep(p) && key(p) !== null);
  const undated = photos.filter((p) => keep(p) && key(p) === null);
  dated.sort((a, b) => key(a)! - key(b)! || a.id - b.id);
  undated.sort((a, b) => a.id - b.id);
  return [...dated, ...undated].map((p) => p.id);
}

function pageThrough(q: Omit<PhotoQuery, 'limit' | 'cursor' | 'sort'>, limit: number) {
  const ids: number[] = [];
  let cursor: PhotoQuery['cursor'];
  for (let pages = 0; pages < 1000; pages++) {
    const page = listing.list({ ...q, sort: 'date', cursor, limit });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    ids.push(...page.items.map((p) => p.id));
    // A cursor only after a full page, and it names the last photo of the page.
    if (page.items.length < limit) expect(page.nextCursor).toBeNull();
    if (!page.nextCursor) return { ids, total: page.total };
    expect(page.nextCursor.id).toBe(page.items.at(-1)!.id);
    cursor = page.nextCursor;
  }
  throw new Error('paging did not end');
}

describe('grid by date: keyset paging', () => {
  it('the seeded library has ties on the key, open and closed ends on one day, and an undated tail', () => {
    const all = expected();
    expect(all).toHaveLength(64);
    expect(photos.filter((p) => p.earliest === 19250101 && p.latest === 19251231).length).toBeGreaterThan(3);
    expect(photos.filter((p) => p.status === 'undated' || p.status === 'conflict').length).toBeGreaterThan(10);
  });

  it('every page size gives every photo exactly once, in order, across the dated → undated boundary', () => {
    const all = expected();
    for (let limit = 1; limit <= 65; limit++) {
      const { ids, total } = pageThrough({ filter: 'all' }, limit);
      expect(ids, `pages of ${limit}`).toEqual(all);
      expect(total).toBe(64);
    }
  });

  it('a state filter, a year range and a search keep the order and lose nothing', () => {
    for (const limit of [1, 2, 3, 5, 7]) {
      expect(pageThrough({ filter: 'needs_review' }, limit).ids).toEqual(expected((p) => p.status === 'needs_review'));
      expect(pageThrough({ filter: 'conflict' }, limit).ids).toEqual(expected((p) => p.status === 'conflict'));
      // Within 1920–1935: both ends known and inside.
      const within = (p: Seeded) =>
        (p.status === 'estimated' || p.status === 'needs_review') &&
        p.earliest !== null &&
        p.earliest >= 19200101 &&
        p.latest !== null &&
        p.latest <= 19351231;
      expect(pageThrough({ filter: 'all', yearFrom: 1920, yearTo: 1935 }, limit).ids).toEqual(expected(within));
      // Filenames are "<id - 1>.jpg": a search for "1" finds those that start with 1.
      const search = (p: Seeded) => String(p.id - 1).startsWith('1');
      expect(pageThrough({ filter: 'all', search: '1' }, limit).ids).toEqual(expected(search));
    }
  });

  it('a cursor that is not on any photo continues after where it would be', () => {
    // A photo deleted between two pages: its cursor still says where the next page starts.
    const all = expected();
    const gone = photos.find((p) => p.earliest === 19250101 && p.latest === 19251231)!;
    const page = listing.list({ sort: 'date', filter: 'all', limit: 100, cursor: { v: 19250101 * 2, id: gone.id } });
    expect(page.items.map((p) => p.id)).toEqual(all.slice(all.indexOf(gone.id) + 1));
    const undated = listing.list({ sort: 'date', filter: 'all', limit: 100, cursor: { v: null, id: 0 } });
    expect(undated.items.map((p) => p.id)).toEqual(expected((p) => p.earliest === null && p.latest === null));
  });
});
