// Looks words up in the notation data (words/*.ts): month, season and holiday names and the small
// date words of seven languages. Matching ignores case, accents and a trailing abbreviation
// period, so "AOÛT", "aout" and "Août" are one word, as are "Sept." and "sept".
import type { Holiday, Season } from './calendar-periods';
import {
  APPROXIMATE_WORDS,
  BETWEEN_WORDS,
  FILLER_WORDS,
  LIST_WORDS,
  OR_WORDS,
  RANGE_OPENING_WORDS,
  RANGE_WORDS,
  UNDATED_WORDS,
} from './words/date-words';
import { HOLIDAY_WORDS } from './words/holiday-words';
import { MONTH_WORDS, MONTHS_ONLY_WITH_A_DAY } from './words/month-words';
import { SEASON_WORDS } from './words/season-words';

/** Lower case, accents and a trailing period removed, curly apostrophes straightened. */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[’‘`]/g, "'").replace(/\.$/, '');
}

export type WordRole = 'range' | 'opening' | 'between' | 'list' | 'or' | 'approximate' | 'filler' | 'undated';

export interface WordMeaning {
  month?: { month: number; onlyWithADay: boolean };
  season?: Season;
  holiday?: Holiday;
  roles: Set<WordRole>;
}

function build(): Map<string, WordMeaning> {
  const lexicon = new Map<string, WordMeaning>();
  const entry = (word: string): WordMeaning => {
    const key = foldWord(word);
    let meaning = lexicon.get(key);
    if (!meaning) lexicon.set(key, (meaning = { roles: new Set() }));
    return meaning;
  };
  const onlyWithADay = new Set(MONTHS_ONLY_WITH_A_DAY.map(foldWord));
  for (const months of Object.values(MONTH_WORDS)) {
    months.forEach((spellings, i) => {
      for (const word of spellings) entry(word).month = { month: i + 1, onlyWithADay: onlyWithADay.has(foldWord(word)) };
    });
  }
  for (const seasons of Object.values(SEASON_WORDS)) {
    for (const [season, words] of Object.entries(seasons)) for (const word of words) entry(word).season = season as Season;
  }
  for (const holidays of Object.values(HOLIDAY_WORDS)) {
    for (const [holiday, words] of Object.entries(holidays))
      for (const word of words ?? []) entry(word).holiday = holiday as Holiday;
  }
  const roles: [WordRole, readonly string[]][] = [
    ['range', RANGE_WORDS],
    ['opening', RANGE_OPENING_WORDS],
    ['between', BETWEEN_WORDS],
    ['list', LIST_WORDS],
    ['or', OR_WORDS],
    ['approximate', APPROXIMATE_WORDS],
    ['filler', FILLER_WORDS],
    ['undated', UNDATED_WORDS],
  ];
  for (const [role, words] of roles) for (const word of words) entry(word).roles.add(role);
  return lexicon;
}

const LEXICON = build();

/** Longest entry, in words: phrases such as "por volta de" or "new year's eve" are looked up whole. */
export const LONGEST_PHRASE = Math.max(...[...LEXICON.keys()].map((key) => key.split(' ').length));

export function lookUpWord(phrase: string): WordMeaning | undefined {
  return LEXICON.get(foldWord(phrase));
}
