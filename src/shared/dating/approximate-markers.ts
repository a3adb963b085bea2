// Marks a found date as approximate when the text qualifies it: a prefix such
// as "c.", "ca.", "circa", "abt", "about", "approx.", "around", "~", or a
// trailing "?" / "~" ("1935?", "[1935?]"). The marker becomes part of the
// matched text; the interval stays as written (the flag tells consumers to
// treat it as soft).
import type { FoundDate } from './types';

// "c" must be a word of its own ("c1935", "c. 1935"), not the end of "Abc".
const PREFIX = /(?:\b(?:circa|cca|ca|c|abt|about|approx|approximately|around|roughly)\.?\s*|~\s*)$/i;
const SUFFIX = /^[?~]/;

export function attachApproximateMarkers<T extends FoundDate>(text: string, found: T): T {
  if (found.approximate) return found;
  const before = PREFIX.exec(text.slice(0, found.index));
  const end = found.index + found.text.length;
  const after = SUFFIX.exec(text.slice(end));
  if (!before && !after) return found;
  const index = before ? before.index : found.index;
  const marker = (before?.[0] ?? after?.[0] ?? '').trim();
  const newEnd = after ? end + after[0].length : end;
  return {
    ...found,
    text: text.slice(index, newEnd),
    index,
    approximate: true,
    // The reader's EDTF did not see the marker: extract-dates.ts writes the interval's instead.
    edtf: undefined,
    reason: `${found.reason}, marked approximate by '${marker}'`,
  };
}
