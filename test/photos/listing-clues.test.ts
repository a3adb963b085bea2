/**
 * "Include clues" in the grid and the export scope: off (the default), a photo with only clues is
 * undated, so it sorts last by date and no year range holds it; on, it is placed and filtered by
 * what its clues alone would say, while dated photos keep their estimate and a conflict stays
 * undated. Checked against the order worked out here in plain code, at every page size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { PhotoListing, photoWhere, type PhotoQuery } from '../../src/main/catalogue/photo-listing';
import { openTestCore } from '../support/core';

interface Seeded {
  id: number;
  status: 'estimated' | 'needs_review' | 'undated' | 'conflict';
  earliest: number | null;
  latest: number | null;
  /** What the clues alone would say (an undated photo's `withClues`). */
  clues: { earliest: number | null; latest: number | null } | null;
}

let core: Core;
let listing: PhotoListing;
const photos: Seeded[] = [];

const kinds: Omit<Seeded, 'id'>[] = [
  { status: 'estimated', earliest: 19250101, latest: 19251231, clues: null },
  { status: 'undated', earliest: null, latest: null, clues: { earliest: 18800101, latest: 19251231 } }, // "a blue rectangle"
  { status: 'undated', earliest: null, latest: null, clues: null }, // nothing at all
  { status: 'needs_review', earliest: 19300101, latest: 19391231, clues: null },
  { status: 'undated', earliest: null, latest: null, clues: { earliest: 19300101, latest: null } }, // a clue with an open end
  { status: 'conflict', earliest: null, latest: null, clues: null },
  { status: 'undated', earliest: null, latest: null, clues: { earliest: 19250101, latest: 19251231 } }, // ties a dated key
  { status: 'estimated', earliest: null, latest: 19120630, clues: null },
];

beforeAll(() => {
  core = openTestCore({ runJobs: false });
  const insert = core.db.sqlite.prepare(
    `INSERT INTO photos (sha256, path, filename, size, imported_at, updated_at, estimate_status, estimate_earliest, estimate_latest, estimate)
     VALUES (?, ?, ?, 1, 0, 0, ?, ?, ?, ?)`,
  );
  core.db.sqlite.transaction(() => {
    for (let i = 0; i < 40; i++) {
      const k = kinds[(i * 3) % kinds.length];
      const estimate = JSON.stringify({
        status: k.status,
        earliest: k.earliest,
        latest: k.latest,
        clueIds: k.clues ? [i + 1000] : [],
        withClues: k.clues && { ...k.clues, confidence: 0.2, edtf: null, dacs: 'circa' },
      });
      const r = insert.run(`${i}`.padStart(64, '0'), `/p/${i}.jpg`, `${i}.jpg`, k.status, k.earliest, k.latest, estimate);
      photos.push({ id: Number(r.lastInsertRowid), ...k });
    }
  })();
  listing = new PhotoListing(core.db.sqlite);
});
afterAll(() => core.close());

/** The ends a photo is sorted and filtered by. */
const ends = (p: Seeded, includeClues: boolean) =>
  includeClues && p.status === 'undated' && p.clues ? p.clues : { earliest: p.earliest, latest: p.latest };

/** The promised date order, in plain code (see listing-date-order.test.ts). */
function expected(includeClues: boolean, keep: (p: Seeded) => boolean = () => true): number[] {
  const key = (p: Seeded) => {
    const { earliest, latest } = ends(p, includeClues);
    const end = earliest ?? latest;
    return end === null ? null : end * 2 + (earliest === null || latest === null ? 1 : 0);
  };
  const kept = photos.filter(keep);
  const dated = kept.filter((p) => key(p) !== null).sort((a, b) => key(a)! - key(b)! || a.id - b.id);
  const undated = kept.filter((p) => key(p) === null).sort((a, b) => a.id - b.id);
  return [...dated, ...undated].map((p) => p.id);
}

function pageThrough(q: Omit<PhotoQuery, 'limit' | 'cursor' | 'sort'>, limit: number): number[] {
  const ids: number[] = [];
  let cursor: PhotoQuery['cursor'];
  for (let pages = 0; pages < 1000; pages++) {
    const page = listing.list({ ...q, sort: 'date', cursor, limit });
    ids.push(...page.items.map((p) => p.id));
    if (!page.nextCursor) return ids;
    cursor = page.nextCursor;
  }
  throw new Error('paging did not end');
}

/** Within 1920–1935, or could be from it, over the ends the mode reads. */
const within = (includeClues: boolean) => (p: Seeded) => {
  const { earliest, latest } = ends(p, includeClues);
  const dated = p.status === 'estimated' || p.status === 'needs_review' || (includeClues && p.clues !== null);
  return dated && earliest !== null && earliest >= 19200101 && latest !== null && latest <= 19351231;
};
const overlaps = (includeClues: boolean) => (p: Seeded) => {
  const { earliest, latest } = ends(p, includeClues);
  const dated = p.status === 'estimated' || p.status === 'needs_review' || (includeClues && p.clues !== null);
  return dated && (latest === null || latest >= 19200101) && (earliest === null || earliest <= 19351231);
};

describe('include clues: the grid by date and the year filter', () => {
  it('off, a photo with only clues sorts with the undated and no year range holds it', () => {
    const clueOnly = photos.filter((p) => p.status === 'undated' && p.clues).map((p) => p.id);
    const all = pageThrough({ filter: 'all' }, 7);
    expect(all).toEqual(expected(false));
    // Every clue-only photo is in the undated tail.
    const firstUndated = all.findIndex(
      (id) => photos.find((p) => p.id === id)!.earliest === null && photos.find((p) => p.id === id)!.latest === null,
    );
    for (const id of clueOnly) expect(all.indexOf(id)).toBeGreaterThanOrEqual(firstUndated);
    const years = pageThrough({ filter: 'all', yearFrom: 1870, yearTo: 1940, yearMode: 'overlaps' }, 5);
    expect(years.filter((id) => clueOnly.includes(id))).toEqual([]);
  });

  it('on, clue-only photos are placed by their clues at every page size, and nothing is lost', () => {
    const all = expected(true);
    expect(all).not.toEqual(expected(false));
    for (let limit = 1; limit <= 41; limit++) {
      expect(pageThrough({ filter: 'all', includeClues: true }, limit), `pages of ${limit}`).toEqual(all);
    }
  });

  it('on, the year filter counts clues in both modes; dated photos keep their estimate, conflicts stay out', () => {
    for (const limit of [1, 4, 100]) {
      const q = { filter: 'all' as const, yearFrom: 1920, yearTo: 1935, includeClues: true };
      expect(pageThrough(q, limit)).toEqual(expected(true, within(true)));
      expect(pageThrough({ ...q, yearMode: 'overlaps' }, limit)).toEqual(expected(true, overlaps(true)));
      expect(pageThrough({ ...q, includeClues: false }, limit)).toEqual(expected(false, within(false)));
    }
    const page = listing.list({
      sort: 'imported',
      filter: 'undated',
      yearFrom: 1920,
      yearTo: 1935,
      includeClues: true,
      limit: 100,
    });
    expect(page.items.map((p) => p.id).sort((a, b) => a - b)).toEqual(
      photos.filter((p) => p.status === 'undated' && within(true)(p)).map((p) => p.id),
    );
    expect(page.total).toBe(page.items.length);
    expect(page.items.every((p) => p.estimateStatus === 'undated' && p.estimateLabel === null)).toBe(true);
  });

  it("an export's scope reads the same condition", () => {
    const scoped = (includeClues: boolean) => {
      const { where, args } = photoWhere({ filter: 'all', yearFrom: 1870, yearTo: 1930, includeClues });
      return core.db.sqlite
        .prepare(`SELECT id FROM photos WHERE ${where.join(' AND ')} ORDER BY id`)
        .pluck()
        .all(...args) as number[];
    };
    const inRange = (includeClues: boolean) => (p: Seeded) => {
      const { earliest, latest } = ends(p, includeClues);
      const dated = p.status === 'estimated' || p.status === 'needs_review' || (includeClues && p.clues !== null);
      return dated && earliest !== null && earliest >= 18700101 && latest !== null && latest <= 19301231;
    };
    expect(scoped(false)).toEqual(photos.filter(inRange(false)).map((p) => p.id));
    expect(scoped(true)).toEqual(photos.filter(inRange(true)).map((p) => p.id));
    expect(scoped(true).length).toBeGreaterThan(scoped(false).length);
  });
});
