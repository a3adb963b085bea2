// Seasons and holidays with a year: "Summer '61", "winter 1944-45",
// "the fall of 1938", "Xmas 1952", "Christmas '52", "Easter 1938",
// "New Year's Eve 1949". After a season or holiday word a two-digit year
// needs no apostrophe ("summer 61"): the word makes it a year.
import { type Holiday, holidayPeriod, type Season, seasonPeriod, winterStartingIn } from './calendar-periods';
import { APOSTROPHE, CONFIDENCE, collectMatches, type DateRule, readYearToken, YEAR_TOKEN } from './extraction-kit';
import { toDacs } from './format';

const AFTER_WORD = `[\\s,]*(?:of\\s+)?`;

const SEASON = new RegExp(`\\b(spring|summer|autumn|fall|winter)${AFTER_WORD}(${YEAR_TOKEN})(?!\\d)`, 'gi');

export const findSeasons: DateRule = (text, context) =>
  collectMatches(SEASON, text, (match) => {
    const word = match[1].toLowerCase();
    const season: Season = word === 'fall' ? 'autumn' : (word as Season);
    const year = readYearToken(match[2], context);
    if (year === null) return null;
    const period = seasonPeriod(season, year);
    return {
      ...period,
      approximate: false,
      confidence: CONFIDENCE.season,
      reason:
        season === 'winter'
          ? `season '${match[0]}' (the winter ending or the one starting in ${year})`
          : `season '${match[0]}' (${toDacs(period.earliest, period.latest)})`,
    };
  });

// "winter 1944-45", "winter of 1944/1945": one named winter.
const WINTER_ACROSS_YEARS = new RegExp(
  `\\bwinter${AFTER_WORD}(1[89]\\d\\d|20\\d\\d)\\s*[-–/]\\s*(${APOSTROPHE}?\\d\\d|1[89]\\d\\d|20\\d\\d)(?!\\d)`,
  'gi',
);

export const findWintersAcrossYears: DateRule = (text) =>
  collectMatches(WINTER_ACROSS_YEARS, text, (match) => {
    const first = Number(match[1]);
    const secondDigits = match[2].replace(new RegExp(APOSTROPHE, 'g'), '');
    const second = secondDigits.length === 2 ? Math.floor(first / 100) * 100 + Number(secondDigits) : Number(secondDigits);
    if (second !== first + 1) return null;
    return {
      ...winterStartingIn(first),
      approximate: false,
      confidence: CONFIDENCE.season,
      reason: `season '${match[0]}' (December ${first} to February ${second})`,
    };
  });

const HOLIDAY_WORDS: [RegExp, Holiday][] = [
  [/^christmas\s+eve$/i, 'christmas-eve'],
  [/^christmas\s+day$/i, 'christmas-day'],
  [/^(?:christmas|x-?mas)$/i, 'christmas'],
  [/^new\s+year\S*\s+eve$/i, 'new-years-eve'],
  [/^new\s+year\S*\s+day$/i, 'new-years-day'],
  [/^new\s+year\S*$/i, 'new-year'],
  [/^easter\s+sunday$/i, 'easter-sunday'],
  [/^easter$/i, 'easter'],
];

const HOLIDAY = new RegExp(
  `\\b(christmas(?:\\s+(?:eve|day))?|x-?mas|new\\s+years?(?:${APOSTROPHE}s)?(?:\\s+(?:eve|day))?|easter(?:\\s+sunday)?)${AFTER_WORD}(${YEAR_TOKEN})(?!\\d)`,
  'gi',
);

export const findHolidays: DateRule = (text, context) =>
  collectMatches(HOLIDAY, text, (match) => {
    const holiday = HOLIDAY_WORDS.find(([pattern]) => pattern.test(match[1]))?.[1];
    const year = readYearToken(match[2], context);
    if (!holiday || year === null) return null;
    const period = holidayPeriod(holiday, year);
    return {
      ...period,
      approximate: false,
      confidence: CONFIDENCE.holiday,
      reason: `holiday '${match[0]}' (${toDacs(period.earliest, period.latest)})`,
    };
  });
