// The words before a name that turn it into a bound: "after the war" (not before its end),
// "before the Coronation" (not after its start), "during the Blitz" (between its ends). In the
// archivist's languages, matched on accent-folded text ("apres", "wahrend"). Words that also mean
// something else are held to the form that cannot: Dutch "na" only before "de", Portuguese "depois"
// and "antes" only before "da"/"do" (so "na Segunda Guerra" — "in the Second War" — is not "after").

export type QualifierRole = 'after' | 'before' | 'during';

const AFTER = [
  'after\\s+',
  'since\\s+',
  'post[\\s\\-]*',
  'apres\\s+',
  'depuis\\s+',
  'nach\\s+',
  'seit\\s+',
  'despues\\s+de\\s+',
  'dopo\\s+',
  'na(?=\\s+de\\s)\\s+',
  'depois\\s+d(?=[ao]\\s)',
];
const BEFORE = [
  'before\\s+',
  'pre[\\s\\-]*',
  'avant\\s+',
  'vor\\s+',
  'antes\\s+de\\s+',
  'antes\\s+d(?=[ao]\\s)',
  "prima\\s+d(?:i|el|ella|ell['’]|ei|egli)?\\s*",
];
const DURING = ['during\\s+', 'throughout\\s+', 'pendant\\s+', 'durant\\s+', 'wahrend\\s+', 'durante\\s+', 'tijdens\\s+'];

/** An article the qualifier may carry before a name that has none ("after the Coronation of George VI"). */
const ARTICLE = "(?:(?:the|la|le|les|l['’]|dem|den|der|des|del|della|dello|il|lo|de|het)\\s*)?";

/** Named groups `after`, `before`, `during`; the whole group is optional in the reader's pattern. */
export const QUALIFIER_PATTERN = `(?:(?<after>${AFTER.join('|')})|(?<before>${BEFORE.join('|')})|(?<during>${DURING.join('|')}))${ARTICLE}`;

export function qualifierRole(groups: Record<string, string | undefined> | undefined): QualifierRole | null {
  if (groups?.after !== undefined) return 'after';
  if (groups?.before !== undefined) return 'before';
  if (groups?.during !== undefined) return 'during';
  return null;
}
