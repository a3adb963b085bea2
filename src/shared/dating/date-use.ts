// Which found dates are of the object's use rather than of the picture. A postmark, a lab's
// "developed" or "printed" stamp, a "received" note, a copyright line, an accession or gift
// record say when the print existed — so the picture is no later — but the picture itself may be
// years older. Such a date becomes a "not after" bound instead of an estimate of the picture.
//
// A cue counts for the date that follows it on the same line (within a few words, with no other
// date in between), or for the date it directly follows in parentheses: "JUN 12 1947 (postmark)".
import type { DateUse, FoundDate, UseCue } from './types';

const CUES: [UseCue, RegExp, string][] = [
  ['postmark', /post\s*-?\s*mark(?:ed)?|\bpmk\b\.?|\bcancell?ed\b/iy, 'a postmark dates when the card or print was sent'],
  ['processing', /\b(?:developed|dev'?d|processed)\b/iy, 'a processing stamp dates when the film or print was developed'],
  ['printing', /\b(?:re)?printed\b/iy, 'a printing date says when the print was made'],
  ['receipt', /\b(?:received|rec'?d|recv'?d)\b\.?/iy, 'a "received" note dates when someone got the print'],
  ['copyright', /©|\(c\)|\bcopyright(?:ed)?\b|\bcopr\.?/iy, 'a copyright line dates the publication'],
  ['accession', /\b(?:accessioned|acquired)\b/iy, 'an accession record dates when the archive took the print in'],
  ['gift', /\b(?:gift\s+of|donated(?:\s+by)?|donation\s+of|given\s+by)\b/iy, 'a gift record dates when the print was given'],
  ['digitisation', /\b(?:scanned|digiti[sz]ed)\b/iy, 'a scan or digitisation date says when the print was copied'],
];

const WHY: Record<UseCue, string> = Object.fromEntries(CUES.map(([cue, , why]) => [cue, why])) as Record<UseCue, string>;

/** How far before a date (on its line) a cue may stand: "Postmarked PARIS 12-6-23", "POSTMARK BROOKLYN N.Y. JUN 12". */
const REACH = 40;

/** The last cue in `before` (text on the date's line, after any earlier date). */
function cueBefore(before: string): DateUse | null {
  let best: { use: DateUse; at: number } | null = null;
  for (let at = 0; at < before.length; at++) {
    for (const [cue, pattern] of CUES) {
      pattern.lastIndex = at;
      const m = pattern.exec(before);
      if (m && (!best || at >= best.at)) best = { use: { cue, word: m[0].trim() }, at };
    }
  }
  return best?.use ?? null;
}

const AFTER = /^\s*[([]\s*([^)\]\n]{1,20})[)\]]|^\s+(\S+)/;

function cueAfter(after: string): DateUse | null {
  const m = AFTER.exec(after);
  const word = m?.[1] ?? m?.[2];
  if (!word) return null;
  for (const [cue, pattern] of CUES) {
    pattern.lastIndex = 0;
    const hit = pattern.exec(word);
    if (hit && hit[0].length >= word.trim().length - 1) return { cue, word: hit[0].trim() };
  }
  return null;
}

/** Marks the dates (in text order) whose text says they date the object's use; explains why in `reason`. */
export function classifyUse(text: string, dates: FoundDate[]): FoundDate[] {
  return dates.map((found, i) => {
    const lineStart = text.lastIndexOf('\n', found.index - 1) + 1;
    const previous = dates[i - 1];
    const from = Math.max(lineStart, found.index - REACH, previous ? previous.index + previous.text.length : 0);
    const end = found.index + found.text.length;
    const next = dates[i + 1];
    const lineEnd = text.indexOf('\n', end);
    const until = Math.min(next ? next.index : text.length, lineEnd < 0 ? text.length : lineEnd);
    const use = cueBefore(text.slice(from, found.index)) ?? cueAfter(text.slice(end, until));
    if (!use) return found;
    return {
      ...found,
      use,
      reason: `${found.reason}; '${use.word}' dates the object's use, not the picture: ${WHY[use.cue]}, so the picture is no later`,
    };
  });
}
