// Context checks that veto a found "date" because the surrounding text shows
// the number is something else. Each check looks only at the characters right
// before or right after the match.
import type { FoundDate } from './types';

// "No. 1947", "Lot No. 1947", "#1947", "Neg. 1935", "Acc. 1947", "Page 1938",
// "Box 1947", "Tel. 1947": catalogue, accession, negative, page, box and
// telephone numbers. A label directly before the number makes it an identifier.
const LABEL_BEFORE =
  /(?:\b(?:no|nos|nr|num|number|lot|neg|negative|acc|accession|cat|catalog|catalogue|inv|inventory|item|box|folder|file|page|pg|p|pp|vol|volume|ref|id|plate|roll|reel|frame|ms|mss|tel|phone|telephone|room|rm|apt|suite|route|rt|hwy|highway|serial)\b\.?\s*[:#]?\s*|#\s*)$/i;

// "$1947", "£1947": prices.
const CURRENCY_BEFORE = /[$£€¥¢]\s*$/;

// Part of a longer digit group: "555-1947" (phone), "12.1947", "10:1947";
// and the phone exchange form "(212) 555 1947".
const DIGIT_GROUP_BEFORE = /(?:\d[-./:]|(?:^|\D)\d{3}\s)$/;
// "1947.12.3" (museum accession number: year of acquisition, lot, item),
// "1947-5555", "1947,000": more digits follow.
const DIGIT_GROUP_AFTER = /^(?:[-./:]\d|,\d{3})/;

// Letters glued to the number: "A1947", "1947a", "1947th". (A "c" for circa
// has already been absorbed into the match by approximate-markers.ts.)
const LETTER_BEFORE = /\p{L}$/u;
const LETTER_AFTER = /^\p{L}/u;

// "1947 pages", "1947 ft", "1947%", "1947 hrs": quantities.
const UNIT_AFTER =
  /^(?:\s*%|\s*(?:pages?|pp|pgs?|copies|feet|ft|foot|inches|yards?|yds?|miles?|mi|metres?|meters?|km|kg|lbs?|pounds|dollars|cents|hrs|hours|acres|people|persons)\b)/i;

const STREET_SUFFIXES = [
  'Street',
  'St',
  'Avenue',
  'Ave',
  'Road',
  'Rd',
  'Boulevard',
  'Blvd',
  'Lane',
  'Ln',
  'Drive',
  'Dr',
  'Place',
  'Pl',
  'Court',
  'Ct',
  'Terrace',
  'Way',
  'Parkway',
  'Pkwy',
  'Highway',
  'Hwy',
  'Square',
  'Sq',
];
const STREET_SUFFIX = STREET_SUFFIXES.flatMap((suffix) => [suffix, suffix.toUpperCase()]).join('|');
// "1947 Main Street", "1947 W. 5th St.", "1947 BROADWAY": a house number.
// Case-sensitive on purpose: the street name is capitalised, so "1947 at the
// Main Street parade" is not a house number.
const STREET_AFTER = new RegExp(
  `^\\s+(?:(?:[NSEW]\\.?\\s+)?(?:[A-Z0-9][\\w'’.-]*\\s+){1,3}(?:${STREET_SUFFIX})\\b|Broadway\\b|BROADWAY\\b)`,
);

const STARTS_WITH_A_NUMBER = /^[[(]?\d/;
const CHECKS_BEFORE = [LABEL_BEFORE, CURRENCY_BEFORE, DIGIT_GROUP_BEFORE, LETTER_BEFORE];
const CHECKS_AFTER = [DIGIT_GROUP_AFTER, LETTER_AFTER, UNIT_AFTER, STREET_AFTER];

// Year-first with dots ("1947.12.3") is the museum accession convention; a
// date parser would otherwise read it as 3 December 1947.
const ACCESSION_NUMBER = /^\d{4}\.\d/;

// "Aunt May 1947", "Cousin June, 1947": a given name, then a year. Only a month without its day
// is vetoed; "Aunt May, June 12, 1947" still reads June 12.
const NAME_TITLE_BEFORE =
  /\b(?:aunt|auntie|uncle|cousin|grandma|grandmother|granny|nana|mother|sister|sr|mrs|miss|ms|mr|tante|tia|tía|zia)\.?\s+$/i;
const MONTH_THAT_IS_A_NAME = /^(?:april|may|june)\b(?![\s.,]*\d{1,2}(?!\d))/i;

export function isInNonDateContext(text: string, found: Pick<FoundDate, 'text' | 'index'>): boolean {
  const before = text.slice(Math.max(0, found.index - 40), found.index);
  const after = text.slice(found.index + found.text.length, found.index + found.text.length + 60);
  return (
    (MONTH_THAT_IS_A_NAME.test(found.text) && NAME_TITLE_BEFORE.test(before)) ||
    ACCESSION_NUMBER.test(found.text) ||
    // A label or a price before a number: "No. 1950"; not before a word ("no verão de 1912": in the summer).
    (STARTS_WITH_A_NUMBER.test(found.text) && CHECKS_BEFORE.some((check) => check.test(before))) ||
    CHECKS_AFTER.some((check) => check.test(after))
  );
}
