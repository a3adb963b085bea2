// Marks a found date as approximate or uncertain when the text qualifies it and the reader did
// not: a prefix such as "c.", "ca.", "circa", "abt", "about", "approx.", "around", "~" makes it
// approximate (EDTF '~'); "probably", "possibly", "perhaps" or a trailing "?" ("1935?",
// "[between 1906 and 1912?]") make it uncertain (EDTF '?', as DACS and LC use the question
// mark); a trailing "~" makes it approximate. The marker becomes part of the matched text; the
// interval stays as written (the flag tells consumers to treat it as soft).
import type { FoundDate } from './types';
import { toEdtf } from './format';

// "c" must be a word of its own ("c1935", "c. 1935"), not the end of "Abc".
const APPROXIMATE_PREFIX = /(?:\b(?:circa|cca|ca|c|abt|about|approx|approximately|around|roughly)\.?\s*|~\s*)$/i;
const UNCERTAIN_PREFIX = /\b(?:probably|possibly|perhaps|presumably)\s+$/i;
const SUFFIX = /^[?~]/;

export function attachApproximateMarkers<T extends FoundDate>(text: string, found: T): T {
  if (found.approximate) return found;
  const head = text.slice(0, found.index);
  const approximateBefore = APPROXIMATE_PREFIX.exec(head);
  const uncertainBefore = approximateBefore ? null : UNCERTAIN_PREFIX.exec(head);
  const before = approximateBefore ?? uncertainBefore;
  const end = found.index + found.text.length;
  const after = SUFFIX.exec(text.slice(end));
  if (!before && !after) return found;
  const index = before ? before.index : found.index;
  const marker = (before?.[0] ?? after?.[0] ?? '').trim();
  const newEnd = after ? end + after[0].length : end;
  const uncertain = uncertainBefore !== null || after?.[0] === '?';
  const approximate = approximateBefore !== null || after?.[0] === '~';
  return {
    ...found,
    text: text.slice(index, newEnd),
    index,
    approximate: true,
    ...(uncertain ? { uncertain: true } : {}),
    // The reader's EDTF did not see the marker. An approximate one gets the interval's from
    // extract-dates.ts ('~'); an uncertain one is written here, with '?' on each closed end.
    edtf: uncertain ? uncertainEdtf(found, approximate) : undefined,
    reason: `${found.reason}, marked ${uncertain ? 'uncertain' : 'approximate'} by '${marker}'`,
  };
}

/** '1906?', '1906?/1912?', '../1939?'; '%' where it is also approximate. A set keeps no marks. */
function uncertainEdtf(found: FoundDate, approximate: boolean): string | undefined {
  const plain = toEdtf(found.earliest, found.latest, { precision: found.precision });
  if (plain.startsWith('[') || plain.startsWith('{')) return undefined;
  const mark = approximate ? '%' : '?';
  return plain
    .split('/')
    .map((end) => (end === '..' || end === '' ? end : `${end}${mark}`))
    .join('/');
}
