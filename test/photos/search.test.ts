/**
 * Issue 32, item 14: search folds German ß and "ss" like it folds case and accents ("grossmutter"
 * finds "Großmutter" and the other way round), and a search of only punctuation ("(" or "-")
 * finds nothing instead of the whole library. Real SQLite, real FTS5 index, through the grid's
 * listing and the export's scope alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { PhotoListing, photoWhere, sharpSVariants } from '../../src/main/catalogue/photo-listing';
import { openTestCore } from '../support/core';
import { seedPhotos } from '../support/seed-library';

let core: Core;
let listing: PhotoListing;

beforeAll(() => {
  core = openTestCore({ runJobs: false });
  seedPhotos(core.db.sqlite, 40);
  const db = core.db.sqlite;
  const note = db.prepare('UPDATE photos SET notes = ? WHERE id = ?');
  note.run('Großmutter Anna im Garten', 1);
  note.run('Grossmutter Berta, Schweiz', 2);
  note.run('Die Straße nach Passau', 3);
  note.run('Meissen (Porzellan) - 1931', 4);
  listing = new PhotoListing(db, { countCap: 200, smallState: 100, narrowYears: 0 });
});
afterAll(() => core.close());

const found = (search: string) =>
  listing
    .list({ sort: 'imported', filter: 'all', search, limit: 100 })
    .items.map((p) => p.id)
    .sort((a, b) => a - b);

/** The same search as the export's scope reads it (photoWhere). */
const scoped = (search: string) => {
  const { where, args } = photoWhere({ filter: 'all', search });
  return (
    core.db.sqlite.prepare(`SELECT id FROM photos WHERE ${where.join(' AND ')} ORDER BY id`).all(...args) as { id: number }[]
  ).map((r) => r.id);
};

describe('search', () => {
  it('finds ß when ss is typed, and ss when ß is typed', () => {
    expect(found('grossmutter')).toEqual([1, 2]);
    expect(found('Großmutter')).toEqual([1, 2]);
    expect(found('GROSSMUTTER anna')).toEqual([1]);
    expect(found('strasse')).toEqual([3]);
    expect(found('meiß')).toEqual([4]);
    expect(scoped('grossmutter')).toEqual([1, 2]);
  });

  it('a search of punctuation alone finds nothing, not everything', () => {
    for (const typed of ['(', '-', ')', '"', '*', '( -', '—']) {
      expect(found(typed), typed).toEqual([]);
      expect(listing.list({ sort: 'imported', filter: 'all', search: typed, limit: 1 }).total, typed).toBe(0);
      expect(scoped(typed), typed).toEqual([]);
    }
    // Punctuation beside words is ignored, as before.
    expect(found('(Porzellan)')).toEqual([4]);
    expect(found('- 1931')).toEqual([4]);
    // Nothing typed (or spaces) is no search at all.
    expect(found('  ').length).toBe(40);
  });

  it('varies each ss and ß of a word, the word as typed first', () => {
    expect(sharpSVariants('Gross')).toEqual(['gross', 'groß']);
    expect(sharpSVariants('straße')).toEqual(['straße', 'strasse']);
    expect(sharpSVariants('passstrasse')).toContain('paßstraße');
    expect(sharpSVariants('anna')).toEqual(['anna']);
    expect(sharpSVariants('ssssssssss').length).toBeLessThanOrEqual(8);
  });
});
