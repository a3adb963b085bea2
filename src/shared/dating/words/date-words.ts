// The small words around dates in English and fr, de, es, it, nl, pt: what joins two dates into a
// range, a list or alternatives, what marks a date approximate, and what is only grammar ("le 4
// août", "den 4. August", "4 de agosto de 1906"). Recognised whatever language the rest of the
// caption is in. Sources: DACS 2.4 (ranges, "approximately", "and"/"or" in date expressions);
// Library of Congress and ArchivesSpace date expressions ("ca.", "circa", "n.d."); ordinary
// grammars of each language.
export const DATE_WORDS_VERSION = 2;

/** Between two dates: a range ("1906 July 4 - 1919 March", "du 4 au 10 juillet", "4 bis 10 Juli"). */
export const RANGE_WORDS: readonly string[] = [
  'to',
  'through',
  'thru',
  'until',
  'till',
  'au',
  'à',
  'jusqu’au',
  "jusqu'au",
  'bis',
  'al',
  'a',
  'hasta',
  'tot',
  'até',
  'ate',
];

/** Before the first date of a range: "from", "du", "von", "del", "dal", "van" … (only grammar). */
export const RANGE_OPENING_WORDS: readonly string[] = [
  'from',
  'du',
  'von',
  'vom',
  'del',
  'desde',
  'dal',
  'dall’',
  'van',
  'entre',
];

/** "between … and …": the "and" closes a range, not a list. */
export const BETWEEN_WORDS: readonly string[] = ['between', 'entre', 'zwischen', 'tra', 'fra', 'tussen'];

/** Between two dates of a list: each is a date ("July 4 and 5 1906", "4 & 5 juillet"). */
export const LIST_WORDS: readonly string[] = ['and', '&', 'et', 'und', 'y', 'e', 'en'];

/** Between alternatives: one of them is the date ("1906 or 1907"). */
export const OR_WORDS: readonly string[] = ['or', 'ou', 'oder', 'o', 'of'];

/** Before a date: it is approximate ("ca. 1906", "vers 1906", "um 1906", "hacia 1906"). */
export const APPROXIMATE_WORDS: readonly string[] = [
  'ca',
  'c',
  'cca',
  'circa',
  'approximately',
  'approx',
  'about',
  'around',
  'roughly',
  'abt',
  'vers',
  'environ',
  'um',
  'etwa',
  'ungefähr',
  'hacia',
  'aprox',
  'aproximadamente',
  'verso il',
  'verso',
  'intorno al',
  'omstreeks',
  'rond',
  'cerca de',
  'por volta de',
];

/** Grammar around a date, skipped: "le 4 août", "den 4. August", "4 de agosto de 1906", "im Juli". */
export const FILLER_WORDS: readonly string[] = [
  'the',
  'of',
  'on',
  'in',
  'le',
  'la',
  'en',
  'den',
  'der',
  'dem',
  'am',
  'im',
  'de',
  'del',
  'el',
  'il',
  'lo',
  'di',
  'do',
  'da',
  'dia',
  'no',
  'na',
  'op',
  'van',
];

/** A date expression saying there is no date: never read as one. */
export const UNDATED_WORDS: readonly string[] = [
  'n.d.',
  'undated',
  's.d.',
  'o.j.',
  's.f.',
  'z.j.',
  'sans date',
  'ohne jahr',
  'sin fecha',
];
