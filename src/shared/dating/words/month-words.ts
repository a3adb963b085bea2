// Month names and the abbreviations archival description and captions use, in English and the
// six languages of the collections Circa is used on (fr, de, es, it, nl, pt). Domain knowledge as
// data: add a spelling here, not a pattern in a reader. Matching ignores case and accents, and an
// abbreviation may carry its period ("Sept.", "janv.", "Okt."), so only the bare form is listed.
//
// Sources: DACS 2.4 (month names and abbreviations in date expressions); Library of Congress,
// "Abbreviations" (AACR2 Appendix B: Jan., Feb., Mar., Apr., Aug., Sept., Oct., Nov., Dec. and their
// equivalents in other languages); the CLDR month names and abbreviated month names of fr, de,
// es, it, nl and pt (unicode.org/cldr, v44).
export const MONTH_WORDS_VERSION = 1;

export type Language = 'en' | 'fr' | 'de' | 'es' | 'it' | 'nl' | 'pt';

/** Per language, the spellings of each month, January first. */
export const MONTH_WORDS: Record<Language, readonly (readonly string[])[]> = {
  en: [
    ['january', 'jan', 'janry'],
    ['february', 'feb', 'febr', 'feby'],
    ['march', 'mar', 'mch'],
    ['april', 'apr', 'apl'],
    ['may'],
    ['june', 'jun', 'jne'],
    ['july', 'jul', 'jly'],
    ['august', 'aug'],
    ['september', 'sept', 'sep', 'sepr', 'septr'],
    ['october', 'oct', 'octr'],
    ['november', 'nov', 'novr'],
    ['december', 'dec', 'decr'],
  ],
  fr: [
    ['janvier', 'janv', 'jan'],
    ['février', 'févr', 'fév', 'fevr'],
    ['mars'],
    ['avril', 'avr'],
    ['mai'],
    ['juin'],
    ['juillet', 'juil'],
    ['août', 'aout'],
    ['septembre', 'sept'],
    ['octobre', 'oct'],
    ['novembre', 'nov'],
    ['décembre', 'déc'],
  ],
  de: [
    ['januar', 'jänner', 'jän', 'jan'],
    ['februar', 'feber', 'feb'],
    ['märz', 'maerz', 'mär', 'mrz'],
    ['april', 'apr'],
    ['mai'],
    ['juni', 'jun'],
    ['juli', 'jul'],
    ['august', 'aug'],
    ['september', 'sept', 'sep'],
    ['oktober', 'okt'],
    ['november', 'nov'],
    ['dezember', 'dez'],
  ],
  es: [
    ['enero', 'ene'],
    ['febrero', 'feb'],
    ['marzo', 'mar'],
    ['abril', 'abr'],
    ['mayo', 'may'],
    ['junio', 'jun'],
    ['julio', 'jul'],
    ['agosto', 'ago'],
    ['septiembre', 'setiembre', 'sept', 'sep', 'set'],
    ['octubre', 'oct'],
    ['noviembre', 'nov'],
    ['diciembre', 'dic'],
  ],
  it: [
    ['gennaio', 'genn', 'gen'],
    ['febbraio', 'febbr', 'feb'],
    ['marzo', 'mar'],
    ['aprile', 'apr'],
    ['maggio', 'magg', 'mag'],
    ['giugno', 'giu'],
    ['luglio', 'lug'],
    ['agosto', 'ago'],
    ['settembre', 'sett', 'set'],
    ['ottobre', 'ott'],
    ['novembre', 'nov'],
    ['dicembre', 'dic'],
  ],
  nl: [
    ['januari', 'jan'],
    ['februari', 'feb'],
    ['maart', 'mrt', 'mar'],
    ['april', 'apr'],
    ['mei'],
    ['juni', 'jun'],
    ['juli', 'jul'],
    ['augustus', 'aug'],
    ['september', 'sept', 'sep'],
    ['oktober', 'okt'],
    ['november', 'nov'],
    ['december', 'dec'],
  ],
  pt: [
    ['janeiro', 'jan'],
    ['fevereiro', 'fev'],
    ['março', 'marco', 'mar'],
    ['abril', 'abr'],
    ['maio', 'mai'],
    ['junho', 'jun'],
    ['julho', 'jul'],
    ['agosto', 'ago'],
    ['setembro', 'set'],
    ['outubro', 'out'],
    ['novembro', 'nov'],
    ['dezembro', 'dez'],
  ],
};

/**
 * Spellings that are also ordinary words of some language ("set", "out", "ago", "mag", "dec" in
 * "dec. 4" is safe, "out 1906" is not): they are read as a month only beside a day number.
 */
export const MONTHS_ONLY_WITH_A_DAY: readonly string[] = ['set', 'out', 'ago', 'mag', 'gen'];
