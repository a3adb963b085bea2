/**
 * What the library's search box becomes in SQL: an FTS5 query of word prefixes, with German ß and
 * "ss" looked for either way (the index folds case and accents, not ß), or no photo at all when
 * only punctuation was typed.
 */

/**
 * Turns what the user typed into an FTS5 query: every word must match as a prefix, in the
 * filename, the notes or the OCR text ("xmas 194" finds "Xmas 1942"). Quoting each word keeps
 * FTS syntax characters from being interpreted. The index folds case and accents but not German
 * ß, so a word is looked for with each "ss" also as "ß" and the other way round ("grossmutter"
 * finds "Großmutter"). Null: nothing searchable was typed (see `searchCondition`).
 */
export function ftsQuery(input: string): string | null {
  const words = input.match(/[\p{L}\p{N}]+/gu)?.slice(0, 12) ?? [];
  if (!words.length) return null;
  return words
    .map((w) => {
      const forms = sharpSVariants(w);
      return forms.length === 1 ? `"${forms[0]}"*` : `(${forms.map((f) => `"${f}"*`).join(' OR ')})`;
    })
    .join(' AND ');
}

/** At most this many "ss"/"ß" places in a word are varied (2^n forms). */
const SHARP_S_PLACES = 3;

/** The word with each ß as "ss" and each "ss" as either; the word itself first. */
export function sharpSVariants(word: string): string[] {
  const lower = word.toLowerCase();
  const base = lower.replace(/ß/g, 'ss');
  const places = [...base.matchAll(/ss/g)].map((m) => m.index).slice(0, SHARP_S_PLACES);
  if (!places.length) return [lower];
  const forms = new Set<string>([lower]);
  for (let mask = 0; mask < 1 << places.length; mask++) {
    let form = '';
    let from = 0;
    places.forEach((at, i) => {
      form += base.slice(from, at) + (mask & (1 << i) ? 'ß' : 'ss');
      from = at + 2;
    });
    forms.add(form + base.slice(from));
  }
  return [...forms];
}

/**
 * The condition a search puts on the photos: none when nothing was typed, an FTS5 match, or
 * "no photo" when only characters that are not words were typed ("(" or "-" used to return the
 * whole library).
 */
export function searchCondition(search: string | undefined): { match: string } | 'none' | null {
  if (!search?.trim()) return null;
  const match = ftsQuery(search);
  return match ? { match } : 'none';
}
