/**
 * Sorting by date estimate and filtering by years (issue 14 items 4 and 5), on a real library:
 * the photos' estimates come from the archivist's own constraints, as in the app.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import type { ManualConstraint } from '../../src/shared/contract';
import { openTestCore } from '../support/core';

let core: Core;
beforeEach(() => {
  core = openTestCore({ runJobs: false });
});
afterEach(async () => {
  await core.close();
});

let seq = 0;
/** A photo with these constraints (none: undated). */
function photo(name: string, ...constraints: ManualConstraint[]): number {
  const id = core.db.immediate(() =>
    core.photos.insert(
      { sha256: String(++seq).padStart(64, '0'), path: `/x/${name}`, filename: name, size: 1, mtimeMs: 0 },
      Date.now(),
    ),
  )!;
  for (const c of constraints) core.evidenceService.addManual(id, c, '');
  return id;
}

const names = (items: { filename: string }[]) => items.map((p) => p.filename);

describe('sort by date estimate', () => {
  it('orders by the known end, closed before open on the same day, undated and conflicting last', () => {
    photo('undated');
    photo('not-after-2004', { type: 'not_after', year: 2004 });
    photo('1930-1935', { type: 'between', from: 1930, to: 1935 });
    photo('not-before-1931', { type: 'not_before', year: 1931 });
    photo('conflict', { type: 'not_before', year: 1950 }, { type: 'not_after', year: 1940 });
    photo('1931', { type: 'between', from: 1931, to: 1931 });
    photo('not-after-1925', { type: 'not_after', year: 1925 });
    const expected = ['not-after-1925', '1930-1935', '1931', 'not-before-1931', 'not-after-2004', 'undated', 'conflict'];

    expect(names(core.photos.list({ sort: 'date', filter: 'all', limit: 50 }).items)).toEqual(expected);

    // Page by page (keyset cursor) gives the same order.
    const paged: string[] = [];
    let cursor;
    for (;;) {
      const page = core.photos.list({ sort: 'date', filter: 'all', limit: 2, cursor });
      paged.push(...names(page.items));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(paged).toEqual(expected);
  });

  it('walks an index, not a sort', () => {
    const plan = core.photos.listing.plan({ sort: 'date', filter: 'all', limit: 10 });
    expect(plan.join(' ')).toMatch(/photos_date_order_idx/);
    expect(plan.join(' ')).not.toMatch(/TEMP B-TREE/);
  });
});

describe('year filter', () => {
  beforeEach(() => {
    photo('only-not-after-2026', { type: 'not_after', year: 2026 });
    photo('1999-2001', { type: 'between', from: 1999, to: 2001 });
    photo('1998-2002', { type: 'between', from: 1998, to: 2002 });
    photo('2000', { type: 'between', from: 2000, to: 2000 });
    photo('1950', { type: 'between', from: 1950, to: 1950 });
    photo('undated');
  });
  const list = (yearMode: 'within' | 'overlaps' | undefined, yearFrom?: number, yearTo?: number) =>
    names(core.photos.list({ sort: 'filename', filter: 'all', limit: 50, yearFrom, yearTo, yearMode }).items);

  it('"within" (the default) keeps photos whose estimate lies inside the years', () => {
    expect(list(undefined, 1999, 2001)).toEqual(['1999-2001', '2000']);
    expect(list('within', 1999, 2001)).toEqual(['1999-2001', '2000']);
    expect(list('within', undefined, 1960)).toEqual(['1950']);
  });

  it('"overlaps" keeps photos that could be from those years, open ends included', () => {
    expect(list('overlaps', 1999, 2001)).toEqual(['1998-2002', '1999-2001', '2000', 'only-not-after-2026']);
  });

  it('refuses an inverted range with a message instead of returning nothing', async () => {
    const r = await core.dispatch('photos.list', { yearFrom: 2001, yearTo: 1999 });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    if (!r.ok) expect(r.error.issues?.map((i) => i.message).join()).toContain('2001 is after 1999');
  });
});
