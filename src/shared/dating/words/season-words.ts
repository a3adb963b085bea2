// Season words and their abbreviations in English and fr, de, es, it, nl, pt. Which months a
// season covers is a convention (see calendar-periods.ts: meteorological, northern hemisphere).
// Sources: DACS 2.4.6 examples ("1906 Spring"); Library of Congress abbreviations ("Spr.",
// "Sum.", "Aut.", "Win."); CLDR season names (v44) and ordinary dictionaries for the rest.
import type { Season } from '../calendar-periods';
import type { Language } from './month-words';

export const SEASON_WORDS_VERSION = 1;

export const SEASON_WORDS: Record<Language, Record<Season, readonly string[]>> = {
  en: {
    spring: ['spring', 'spr', 'sprg'],
    summer: ['summer', 'summ', 'sum', 'smr'],
    autumn: ['autumn', 'aut', 'autm', 'fall'],
    winter: ['winter', 'win', 'wint', 'wtr'],
  },
  fr: { spring: ['printemps'], summer: ['été', 'ete'], autumn: ['automne'], winter: ['hiver'] },
  de: {
    spring: ['frühling', 'fruehling', 'frühjahr', 'fruehjahr'],
    summer: ['sommer'],
    autumn: ['herbst'],
    winter: ['winter'],
  },
  es: { spring: ['primavera'], summer: ['verano'], autumn: ['otoño', 'otono'], winter: ['invierno'] },
  it: { spring: ['primavera'], summer: ['estate'], autumn: ['autunno'], winter: ['inverno'] },
  nl: { spring: ['lente', 'voorjaar'], summer: ['zomer'], autumn: ['herfst', 'najaar'], winter: ['winter'] },
  pt: { spring: ['primavera'], summer: ['verão', 'verao'], autumn: ['outono'], winter: ['inverno'] },
};
