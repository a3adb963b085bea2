// The catalogue is data an archivist relies on: every file well-formed, every entry sourced,
// every interval a real one, ids unique, and no name that two entries would both claim.
import { describe, expect, it } from 'vitest';
import { HISTORY_CATALOGUE, HISTORY_CATALOGUE_VERSION, HISTORY_FAMILY_FILES, historyFamilyFileSchema } from './catalogue';
import { allNames, entryEnd, entryStart } from './history-entry';
import { foldAccents } from './name-pattern';
import { FIRST_PHOTOGRAPH_YEAR } from '../photo-era';
import { yearOf } from '../daynum';

describe('the history catalogue', () => {
  it('holds at least 150 entries, every family file valid and versioned', () => {
    for (const file of HISTORY_FAMILY_FILES) expect(historyFamilyFileSchema.safeParse(file).success).toBe(true);
    expect(HISTORY_CATALOGUE.length).toBeGreaterThanOrEqual(150);
    expect(HISTORY_CATALOGUE_VERSION).toMatch(/^[a-z]+@\d+(,[a-z]+@\d+)+$/);
  });

  it('gives every entry a unique id', () => {
    const ids = HISTORY_CATALOGUE.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sources every entry with a work, a title and a checkable address', () => {
    for (const e of HISTORY_CATALOGUE) {
      expect(e.source.work.length, e.id).toBeGreaterThan(0);
      expect(e.source.title.length, e.id).toBeGreaterThan(0);
      expect(e.source.url, e.id).toMatch(/^https:\/\//);
    }
  });

  it('gives every entry a valid interval inside the photographic era (or open at one end)', () => {
    for (const e of HISTORY_CATALOGUE) {
      const start = entryStart(e);
      const end = entryEnd(e);
      expect(start ?? end, e.id).not.toBeNull();
      if (start && end) expect(start.day, e.id).toBeLessThanOrEqual(end.day);
      for (const known of [start, end]) if (known) expect(yearOf(known.day), e.id).toBeGreaterThanOrEqual(1837);
      if (e.yearly) {
        expect(e.yearly.from, e.id).toBeGreaterThanOrEqual(FIRST_PHOTOGRAPH_YEAR);
        expect(e.yearly.until ?? 9999, e.id).toBeGreaterThanOrEqual(e.yearly.from);
      }
    }
  });

  it('lets no two entries claim the same name', () => {
    const owner = new Map<string, string>();
    for (const e of HISTORY_CATALOGUE) {
      for (const name of new Set(allNames(e).map((n) => foldAccents(n).toLowerCase()))) {
        const other = owner.get(name);
        expect(other === undefined || other === e.id, `"${name}" is claimed by ${other} and ${e.id}`).toBe(true);
        owner.set(name, e.id);
      }
    }
  });

  it('names the events the issue asks for in at least English, and the big ones in all six other languages', () => {
    const byId = new Map(HISTORY_CATALOGUE.map((e) => [e.id, e]));
    for (const id of [
      've-day',
      'vj-day',
      'armistice-day',
      'moon-landing',
      'coronation-george-vi',
      'victorian-era',
      'edwardian-era',
      'interwar',
      'great-depression',
      'post-war',
      'turn-of-the-century',
    ]) {
      expect(byId.get(id)?.names.en?.length, id).toBeGreaterThan(0);
    }
    for (const id of ['first-world-war', 'second-world-war', 'interwar', 'moon-landing', 'turn-of-the-century', 'post-war']) {
      for (const lang of ['fr', 'de', 'es', 'it', 'nl', 'pt'] as const)
        expect(byId.get(id)?.names[lang]?.length, `${id} ${lang}`).toBeGreaterThan(0);
    }
  });
});
