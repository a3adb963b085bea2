// The words before a name that turn it into a bound: "after the war" (not before its end),
// "before the Coronation" (not after its start), "during the Blitz" (between its ends). In the
// archivist's languages, matched on accent-folded text ("apres", "wahrend"). Words that also mean
// something else are held to the form that cannot: Dutch "na" only before "de" (so Portuguese
// "na Segunda Guerra" — "in the Second War" — is not "after").
//
// Looked for only where a name was found, in the few words just before it.

export type QualifierRole = 'after' | 'before' | 'during';

interface Qualifier {
  role: QualifierRole;
  /** The words, with the space after them. */
  words: string;
  /** How the name must begin for these words to be the qualifier. */
  nameStarts?: RegExp;
}

const QUALIFIERS: Qualifier[] = [
  ...['after', 'since', 'apres', 'depuis', 'nach', 'seit', 'despues\\s+de', 'dopo'].map((w) => ({
    role: 'after' as const,
    words: `${w}\\s+`,
  })),
  { role: 'after', words: 'post[\\s\\-]*' },
  { role: 'after', words: 'na\\s+', nameStarts: /^de\s/i },
  { role: 'after', words: 'depois\\s+' },
  ...['before', 'avant', 'vor'].map((w) => ({ role: 'before' as const, words: `${w}\\s+` })),
  { role: 'before', words: 'pre[\\s\\-]*' },
  { role: 'before', words: 'antes\\s+' },
  { role: 'before', words: "prima\\s+d(?:i|el|ella|ell['’]|ei|egli)?\\s*" },
  ...['during', 'throughout', 'pendant', 'durant', 'wahrend', 'durante', 'tijdens'].map((w) => ({
    role: 'during' as const,
    words: `${w}\\s+`,
  })),
];

/** An article the qualifier may carry before a name that has none ("after the Coronation of George VI"). */
const ARTICLE = "(?:(?:the|la|le|les|l['’]|dem|den|der|des|del|della|dello|il|lo|de|het|da|do|das|dos)\\s*)?";

const ANCHORED = QUALIFIERS.map((q) => ({
  ...q,
  pattern: new RegExp(`(?<![\\p{L}\\p{N}])(?:${q.words})${q.nameStarts ? '' : ARTICLE}$`, 'iu'),
}));

/** How far before a name a qualifier can start. */
const REACH = 32;

/**
 * The qualifier ending where the name begins, if any: its role and where it starts.
 * `text` is the accent-folded text, `at` the name's offset in it.
 */
export function qualifierBefore(text: string, at: number): { role: QualifierRole; index: number } | null {
  const from = Math.max(0, at - REACH);
  const before = text.slice(from, at);
  const name = text.slice(at, at + 3);
  for (const q of ANCHORED) {
    if (q.nameStarts && !q.nameStarts.test(name)) continue;
    const m = q.pattern.exec(before);
    if (m) return { role: q.role, index: from + m.index };
  }
  return null;
}
