// Reads OCR text the way it was written before dates are looked for in it.
// Tesseract reads a printed ’ before a two-digit year as " or ″, an "l" or
// "I" for a 1 and an "O" for a 0 inside a year, and breaks a year across
// two lines when a caption wraps. Each rule here undoes one such reading,
// only where the result is year-shaped, and says what it changed, so that
// the date found can say what was actually read. Text without such tokens
// passes through unchanged: these rules never invent a number.
import { extractDates, type ExtractDatesOptions } from './extract-dates';
import type { FoundDate } from './types';

export interface OcrCorrection {
  /** What OCR read, and what it was read as. */
  read: string;
  as: string;
  why: string;
}

export interface NormalisedOcrText {
  text: string;
  corrections: OcrCorrection[];
}

type Rule = { pattern: RegExp; why: string; fix: (match: string, ...groups: string[]) => string | null };

// Letters OCR confuses with the digits of a year.
const AS_ONE = 'lI|!';
const AS_ZERO = 'OoD';
const YEARISH = `[\\d${AS_ONE}${AS_ZERO}]`;

function toDigits(token: string): string {
  return token.replace(new RegExp(`[${AS_ONE}]`, 'g'), '1').replace(new RegExp(`[${AS_ZERO}]`, 'g'), '0');
}

const RULES: Rule[] = [
  {
    // "Summer ″62", "June ”57": a double quote or prime where a printer set an apostrophe.
    // Not when a later double quote on the line closes it ("62 is his number": a quotation). A
    // later quote that opens another two-digit year ("19 "19) does not count: mending that one
    // must not change the answer for this one (the rules are idempotent).
    pattern: /(^|[\s(,])(["“”″„‶]) ?(\d\d)(?![\p{L}\d])(?![^\n"“”″]*["“”″](?! ?\d\d(?![\p{L}\d])))/gmu,
    why: 'a double quote before a two-digit year is an apostrophe',
    fix: (_m, before, _quote, digits) => `${before}'${digits}`,
  },
  {
    // "’ 62", "′62", "´62", "ʼ62": other apostrophe look-alikes, or a space OCR put after one.
    pattern: /(^|[\s(,])([′´ʼ]|['’‘`] )(\d\d)(?![\p{L}\d])/gmu,
    why: 'an apostrophe look-alike before a two-digit year',
    fix: (_m, before, _mark, digits) => `${before}'${digits}`,
  },
  {
    // "l947", "19O2", "I962", "1g4O" is left alone: only l/I/|/! for 1 and O/o/D for 0, in a
    // four-character token with at least two real digits that then reads as a year 1800–2099.
    pattern: new RegExp(`(?<![\\p{L}\\d])(${YEARISH}{4})(?=s?(?![\\p{L}\\d]))`, 'gu'),
    why: 'letters read for the digits 1 and 0 inside a year',
    fix: (_m, token) => {
      if (/^\d{4}$/.test(token) || token.replace(/\D/g, '').length < 2) return null;
      const digits = toDigits(token);
      return /^(?:1[89]|20)\d\d$/.test(digits) ? digits : null;
    },
  },
  {
    // "'6O", "'4l": the same confusions in a two-digit year after an apostrophe.
    pattern: new RegExp(`(['’‘\`])(${YEARISH}{2})(?![\\p{L}\\d])`, 'gu'),
    why: 'letters read for the digits 1 and 0 inside a year',
    fix: (_m, mark, token) => {
      if (/^\d\d$/.test(token) || !/\d/.test(token)) return null;
      return `${mark}${toDigits(token)}`;
    },
  },
  {
    // "June 12, 19\n47", "Xmas 19-\n42": a year broken where the caption wraps.
    pattern: /(?<![\d\p{L}])(1[89]|20)[-‐­]?[ \t]*\n[ \t]*(\d\d)(?![\d\p{L}])/gu,
    why: 'a year split across a line break',
    fix: (_m, century, rest) => `${century}${rest}`,
  },
];

export function normaliseOcrText(text: string): NormalisedOcrText {
  const corrections: OcrCorrection[] = [];
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (match: string, ...args: unknown[]) => {
      // replace() passes the groups, then the offset and the whole string.
      const groups = (args.slice(0, -2) as (string | undefined)[]).map((g) => g ?? '');
      const fixed = rule.fix(match, ...groups);
      if (fixed === null || fixed === match) return match;
      corrections.push({ read: match.trim(), as: fixed.trim(), why: rule.why });
      return fixed;
    });
  }
  return { text: out, corrections };
}

/**
 * The dates in OCR text: normalised first, then the ordinary extraction. A date that rests on a
 * correction says so in its reason. `text` and `index` refer to the normalised text.
 */
export function extractDatesFromOcr(text: string, options: ExtractDatesOptions = {}): FoundDate[] {
  const normalised = normaliseOcrText(text);
  if (!normalised.corrections.length) return extractDates(text, options);
  const plain = new Set(extractDates(text, options).map(dateKey));
  return extractDates(normalised.text, options).map((found) => {
    let used = normalised.corrections.filter((c) => found.text.includes(c.as) || c.as.includes(found.text));
    // A date found only after corrections elsewhere (its century taken from a corrected year
    // beside it) rests on those corrections too, and says so.
    if (!used.length && !plain.has(dateKey(found))) used = normalised.corrections;
    if (!used.length) return found;
    const notes = used.map((c) => `OCR read “${c.read}”: ${c.why}`).join('; ');
    return { ...found, reason: `${found.reason} (${notes})` };
  });
}

const dateKey = (f: FoundDate) => `${f.earliest}/${f.latest}`;
