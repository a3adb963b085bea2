// Cuts text into the tokens archival date expressions are made of: years, day numbers (with
// their ordinals: "4th", "1er", "4.", "1º"), words from the notation data (months, seasons,
// holidays, "and", "to", "ca.", "le", "den"…), and the marks "-", ",", "?", "[", "]". Anything
// else is a break. Digit groups joined by "/" or "." ("7/4/1906", "1906.12.3", "555-1947-2") are
// breaks too: the numeric readers (numeric-dates.ts) and the non-date checks deal with them.
import { LONGEST_PHRASE, lookUpWord, type WordMeaning } from './notation-lexicon';

type MarkKind = 'dash' | 'comma' | 'question' | 'open-bracket' | 'close-bracket' | 'tilde' | 'break';

export type Token =
  | { kind: 'year'; value: number; start: number; end: number }
  | { kind: 'day'; value: number; start: number; end: number; ordinal: boolean }
  | { kind: 'word'; meaning: WordMeaning; start: number; end: number; text: string }
  | { kind: MarkKind; start: number; end: number };

const ORDINAL = '(?:st|nd|rd|th|er|re|ème|eme|e|º|°|ª)';
const PIECE = new RegExp(
  [
    `(?<digits>\\d+(?:[./-]\\d+)*)(?<ordinal>${ORDINAL}(?![\\p{L}\\d])|\\.(?!\\d))?`,
    `(?<word>\\p{L}+(?:['’.-]\\p{L}+)*\\.?)`,
    `(?<mark>[-–—,;?~\\[\\]])`,
    `(?<amp>&)`,
    // A date never runs over a line break (a caption's lines are separate notes).
    `(?<newline>\\n)`,
    `(?<other>\\S)`,
  ].join('|'),
  'gu',
);

const MARKS: Record<string, MarkKind> = {
  '-': 'dash',
  '–': 'dash',
  '—': 'dash',
  ',': 'comma',
  ';': 'break',
  '?': 'question',
  '~': 'tilde',
  '[': 'open-bracket',
  ']': 'close-bracket',
};

interface Piece {
  text: string;
  start: number;
  end: number;
  groups: Record<string, string | undefined>;
}

function digitTokens(piece: Piece): Token[] {
  const digits = piece.groups.digits!;
  const { start, end } = piece;
  const parts = digits.split(/[./-]/);
  const joiners = digits.replace(/\d+/g, '');
  // "4-10" (days) and "1906-1910" (years) are ranges; every other joined group is something else.
  if (parts.length === 2 && joiners === '-') {
    const [a, b] = parts;
    const sameKind = (a.length === 4 && b.length === 4) || (a.length <= 2 && b.length <= 2);
    if (!sameKind) return [{ kind: 'break', start, end }];
    const dashAt = start + a.length;
    return [
      ...numberToken(a, start, dashAt, false),
      { kind: 'dash', start: dashAt, end: dashAt + 1 },
      ...numberToken(b, dashAt + 1, end, Boolean(piece.groups.ordinal)),
    ];
  }
  if (parts.length > 1) return [{ kind: 'break', start, end }];
  return numberToken(digits, start, end, Boolean(piece.groups.ordinal));
}

function numberToken(digits: string, start: number, end: number, ordinal: boolean): Token[] {
  const value = Number(digits);
  if (digits.length === 4 && value >= 1000) return [{ kind: 'year', value, start, end }];
  if (digits.length <= 2 && value >= 1 && value <= 31) return [{ kind: 'day', value, start, end, ordinal }];
  return [{ kind: 'break', start, end }];
}

/** The pieces of the text, in order; words are joined into the longest phrase the notation data knows. */
export function tokenize(text: string): Token[] {
  const pieces: Piece[] = [...text.matchAll(PIECE)].map((m) => ({
    text: m[0],
    start: m.index,
    end: m.index + m[0].length,
    groups: m.groups ?? {},
  }));
  const tokens: Token[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (piece.groups.digits) {
      // "1920s", "A1947", "1947a": glued to letters, the number is not a date of its own.
      const glued = /\p{L}/u.test(text[piece.end] ?? '') || /\p{L}/u.test(text[piece.start - 1] ?? '');
      tokens.push(...(glued ? [{ kind: 'break' as const, start: piece.start, end: piece.end }] : digitTokens(piece)));
      continue;
    }
    if (piece.groups.mark) {
      tokens.push({ kind: MARKS[piece.text], start: piece.start, end: piece.end });
      continue;
    }
    if (piece.groups.amp) {
      tokens.push({ kind: 'word', meaning: lookUpWord('&')!, start: piece.start, end: piece.end, text: '&' });
      continue;
    }
    if (!piece.groups.word) {
      tokens.push(monthSlash(tokens, pieces, i) ?? { kind: 'break', start: piece.start, end: piece.end });
      continue;
    }
    const phrase = longestPhrase(text, pieces, i);
    if (phrase) {
      tokens.push({
        kind: 'word',
        meaning: phrase.meaning,
        start: piece.start,
        end: phrase.end,
        text: text.slice(piece.start, phrase.end),
      });
      i = phrase.last;
    } else if (/['’]/.test(piece.text)) {
      tokens.push(...elidedWord(piece));
    } else if (piece.text.includes('-')) {
      tokens.push(...hyphenatedWords(piece));
    } else {
      tokens.push({ kind: 'break', start: piece.start, end: piece.end });
    }
  }
  return tokens;
}

/** The longest run of words from `first` (separated by spaces only) that the lexicon knows. */
function longestPhrase(text: string, pieces: Piece[], first: number): { meaning: WordMeaning; end: number; last: number } | null {
  for (let last = Math.min(pieces.length - 1, first + LONGEST_PHRASE - 1); last >= first; last--) {
    const run = pieces.slice(first, last + 1);
    if (run.some((p) => !p.groups.word)) continue;
    const joined = text.slice(run[0].start, run[run.length - 1].end);
    if (/[^\p{L}'’.\s-]/u.test(joined) || /\s{2,}|\n/.test(joined)) continue;
    const meaning = lookUpWord(joined.replace(/\s+/g, ' '));
    if (meaning) return { meaning, end: run[run.length - 1].end, last };
  }
  return null;
}

/**
 * "Jan/Feb 1947", "Dec./Jan.": a slash between two month names joins them as a dash does (captions
 * and album pages write month ranges this way); any other slash stays a break.
 */
function monthSlash(tokens: readonly Token[], pieces: readonly Piece[], i: number): Token | null {
  const piece = pieces[i];
  const before = tokens[tokens.length - 1];
  const after = pieces[i + 1];
  if (piece.text !== '/' || before?.kind !== 'word' || before.end !== piece.start || !before.meaning.month) return null;
  if (!after?.groups.word || after.start !== piece.end || !lookUpWord(after.text)?.month) return null;
  return { kind: 'dash', start: piece.start, end: piece.end };
}

/** "Jul-Sept", "juillet-août": two known words joined by a hyphen are a range of them. */
function hyphenatedWords(piece: Piece): Token[] {
  const tokens: Token[] = [];
  let at = piece.start;
  for (const part of piece.text.split('-')) {
    const meaning = part ? lookUpWord(part) : undefined;
    if (!meaning) return [{ kind: 'break', start: piece.start, end: piece.end }];
    if (at > piece.start) tokens.push({ kind: 'dash', start: at - 1, end: at });
    tokens.push({ kind: 'word', meaning, start: at, end: at + part.length, text: part });
    at += part.length + 1;
  }
  return tokens;
}

/** "l'été 1907", "nell'estate", "dell'agosto": an elided article, then the word that counts. */
function elidedWord(piece: Piece): Token[] {
  const cut = Math.max(piece.text.lastIndexOf("'"), piece.text.lastIndexOf('’')) + 1;
  const rest = piece.text.slice(cut);
  const meaning = rest ? lookUpWord(rest) : undefined;
  if (!meaning) return [{ kind: 'break', start: piece.start, end: piece.end }];
  return [{ kind: 'word', meaning, start: piece.start + cut, end: piece.end, text: rest }];
}
