// How a name in the data matches a caption: case and accents ignored ("Premiere guerre mondiale"),
// spaces, hyphens and dots interchangeable ("V-E Day", "VE Day", "V.E. Day"), apostrophes of any
// shape, and `[words]` that may be left out ("Coronation of [King] George VI"). Whole words only:
// "Expo 67" is not found in "Expo 678", "the war" not in "the warden".

/** Accents off, one code point at a time, so offsets in the folded text are offsets in the caption. */
export function foldAccents(text: string): string {
  if (!/[^ -~\s]/.test(text)) return text; // printable ASCII and spaces: nothing to fold
  let out = '';
  for (const ch of text) {
    const folded = ch.normalize('NFD').replace(/\p{M}+/gu, '');
    out += folded.length === ch.length ? folded : ch;
  }
  return out;
}

const SEPARATOR = '[\\s.\\-‐‑–—]*';
const APOSTROPHE = "['’‘`]?";

function escapeWord(word: string): string {
  let out = '';
  for (const ch of foldAccents(word)) {
    if (ch === '-' || ch === '‐' || ch === '–') out += SEPARATOR;
    else if (ch === '.') out += '\\.?';
    else if (ch === "'" || ch === '’') out += APOSTROPHE;
    else out += ch.replace(/[\\^$*+?()[\]{}|/]/g, '\\$&');
  }
  return out;
}

/** The regex source of one name (no flags, no word boundaries). */
export function namePattern(name: string): string {
  const tokens = name.trim().split(/\s+/);
  const last = tokens.length - 1;
  return tokens
    .map((token, i) => {
      // "[King]" may be absent, and takes its following space with it.
      const optional = i < last ? /^\[(.+)\]$/.exec(token) : null;
      if (optional) return `(?:${escapeWord(optional[1])}\\.?\\s+)?`;
      return escapeWord(token.replace(/^\[(.+)\]$/, '$1')) + (i < last ? '\\.?\\s+' : '');
    })
    .join('');
}

/** Not inside a word: no letter or digit may touch the match. */
export const BEFORE_WORD = '(?<![\\p{L}\\p{N}])';
export const AFTER_WORD = '(?![\\p{L}\\p{N}])';
