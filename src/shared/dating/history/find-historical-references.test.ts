// The reader, family by family: what a caption naming an event or period says about the picture,
// with the entry and its source; and the ordinary words that must say nothing.
import { describe, expect, it } from 'vitest';
import { dayNum } from '../daynum';
import { findHistoricalReferences, type ReadableEntry, CATALOGUE_ENTRIES } from './find-historical-references';
import { villageFete } from '../../../../test/support/history-entries';

const one = (text: string, entries?: readonly ReadableEntry[]) => {
  const found = findHistoricalReferences(text, entries);
  expect(found, text).toHaveLength(1);
  return found[0];
};
const d = (iso: string) => {
  const [y, m, day] = iso.split('-').map(Number);
  return dayNum(y, m, day);
};

describe('wars and their ends', () => {
  it('reads V-E Day to the day, in any spelling, naming its source', () => {
    for (const text of ['V-E Day celebrations, London', 'VE Day street party', 'V.E. Day 1945', 'Victory in Europe Day']) {
      const r = one(text);
      expect([r.kind, r.earliest, r.latest, r.entry.id]).toEqual(['dates', d('1945-05-08'), d('1945-05-08'), 've-day']);
      expect(r.reason).toContain('Wikipedia, “Victory in Europe Day”');
    }
    expect(one('V-E Day, London').reason).toBe('“V-E Day”: 1945 May 8 (source: Wikipedia, “Victory in Europe Day”)');
    expect(one('Victory in Europe Day').reason).toMatch(/^“Victory in Europe Day” names V-E Day: 1945 May 8/);
  });

  // Checked against their sources (issue 27 review): each end is the one the cited article gives.
  it('dates the wars and events whose data were corrected against their sources', () => {
    expect(one('American Civil War')).toMatchObject({ earliest: d('1861-04-12'), latest: d('1865-06-23') });
    expect(one('American Civil War').reason).toContain('Wikipedia, “Conclusion of the American Civil War”');
    expect(one('March on Rome')).toMatchObject({ earliest: d('1922-10-27'), latest: d('1922-10-31') });
    const peace = one('Peace Day 1919, the parade');
    expect([peace.earliest, peace.latest]).toEqual([d('1919-07-19'), d('1919-07-19')]);
    expect(peace.entry.source).toEqual({
      work: 'Wikipedia',
      title: 'Peace Day 1919',
      url: 'https://en.wikipedia.org/wiki/Peace_Day_1919',
    });
  });

  it('reads V-J Day as the days it was celebrated', () => {
    const r = one('V-J Day crowds');
    expect([r.earliest, r.latest]).toEqual([d('1945-08-14'), d('1945-09-02')]);
  });

  it('reads "after the war" as a bound, not a date, in each language', () => {
    for (const text of [
      'after the war',
      'After the War, Hamburg',
      'nach dem Krieg',
      'après la guerre',
      'después de la guerra',
      'dopo la guerra',
      'na de oorlog',
      'depois da guerra',
    ]) {
      const r = one(text);
      expect([r.kind, r.earliest, r.latest], text).toEqual(['not_before', d('1945-05-08'), null]);
    }
  });

  it('reads "before" and "during" a named war as bounds at its start and over its span', () => {
    expect(one('before the First World War')).toMatchObject({ kind: 'not_after', earliest: null, latest: d('1914-07-28') });
    expect(one('during the Blitz')).toMatchObject({ kind: 'between', earliest: d('1940-09-07'), latest: d('1941-05-11') });
    expect(one('antes da guerra')).toMatchObject({ kind: 'not_after', latest: d('1939-09-01') });
    expect(one('vor dem Ersten Weltkrieg')).toMatchObject({ kind: 'not_after', latest: d('1914-07-28') });
    expect(one('depois da Segunda Guerra Mundial')).toMatchObject({ kind: 'not_before', earliest: d('1945-09-02') });
  });

  it('reads a war named plainly as a soft estimate over its span', () => {
    const r = one('Zweiter Weltkrieg, Feldpost');
    expect(r).toMatchObject({ kind: 'dates', earliest: d('1939-09-01'), latest: d('1945-09-02') });
    expect(r.confidence).toBeLessThan(one('D-Day').confidence!);
  });

  it('keeps Armistice Day as a date apart from its yearly commemoration', () => {
    expect(one('Armistice Day 1918')).toMatchObject({ kind: 'dates', earliest: d('1918-11-11'), latest: d('1918-11-11') });
    expect(one('Armistice Day, 1925, the Cenotaph')).toMatchObject({
      kind: 'dates',
      earliest: d('1925-11-11'),
      latest: d('1925-11-11'),
    });
    expect(one('1931 Armistice Day parade')).toMatchObject({ kind: 'dates', earliest: d('1931-11-11') });
    const yearly = one('Armistice Day parade, Main Street');
    expect(yearly).toMatchObject({ kind: 'not_before', earliest: d('1918-11-11'), latest: null });
    expect(yearly.reason).toContain('kept yearly');
  });
});

describe('coronations and jubilees', () => {
  it('reads a coronation with or without the title', () => {
    for (const text of ['Coronation of George VI', 'Coronation of King George VI, Regent Street', 'coronation of george vi']) {
      expect(one(text)).toMatchObject({ kind: 'dates', earliest: d('1937-05-12'), latest: d('1937-05-12') });
    }
    expect(one('Coronation 1953, street party')).toMatchObject({ earliest: d('1953-06-02') });
  });

  it('reads jubilees', () => {
    expect(one('Silver Jubilee of King George V')).toMatchObject({ earliest: d('1935-05-06'), latest: d('1935-05-06') });
    expect(one("Queen Victoria's Diamond Jubilee")).toMatchObject({ earliest: d('1897-06-20'), latest: d('1897-06-22') });
  });
});

describe("world's fairs and the Olympic Games", () => {
  it('reads a fair over its opening to closing', () => {
    expect(one("St. Louis World's Fair, Palace of Electricity")).toMatchObject({
      earliest: d('1904-04-30'),
      latest: d('1904-12-01'),
    });
    expect(one('Exposition universelle de 1900')).toMatchObject({ earliest: d('1900-04-14'), latest: d('1900-11-12') });
    expect(one('Expo 58, Atomium')).toMatchObject({ earliest: d('1958-04-17'), latest: d('1958-10-19') });
  });

  it('reads the Games by year and city in the six languages', () => {
    for (const text of ['Berlin Olympics', 'Olympia 1936', 'Jeux olympiques de 1936', 'Olympische Spelen 1936']) {
      expect(one(text), text).toMatchObject({ earliest: d('1936-08-01'), latest: d('1936-08-16') });
    }
    expect(one('Olimpiadi di Berlino')).toMatchObject({ earliest: d('1936-08-01') });
    expect(one('Giochi olimpici del 1908')).toMatchObject({ earliest: d('1908-04-27'), latest: d('1908-10-31') });
  });

  it('holds every Summer Games of the early years, 1904 and 1912 included', () => {
    expect(one('St. Louis Olympics 1904')).toMatchObject({ earliest: d('1904-07-01'), latest: d('1904-11-23') });
    expect(one('Olympische Spiele 1912')).toMatchObject({ earliest: d('1912-05-05'), latest: d('1912-07-22') });
  });

  it('does not read a city that held two Games without the year', () => {
    expect(findHistoricalReferences('Athens Olympics')).toEqual([]);
    expect(findHistoricalReferences('Tokyo Olympic Games')).toEqual([]);
    expect(one('Athens Olympics 1896')).toMatchObject({ earliest: d('1896-04-06') });
  });
});

describe('named disasters and milestones', () => {
  it('reads disasters to the day', () => {
    expect(one('San Francisco earthquake, Market Street')).toMatchObject({ kind: 'dates', earliest: d('1906-04-18') });
    expect(one('ruins after the San Francisco earthquake')).toMatchObject({ kind: 'not_before', earliest: d('1906-04-18') });
    expect(one('Watersnoodramp, Zeeland')).toMatchObject({ earliest: d('1953-01-31'), latest: d('1953-02-01') });
    expect(one('naufrage du Titanic')).toMatchObject({ earliest: d('1912-04-14'), latest: d('1912-04-15') });
  });

  it('reads the Moon landing in the six languages', () => {
    for (const text of [
      'watching the Moon landing',
      'Mondlandung im Fernsehen',
      'premier pas sur la Lune',
      'allunaggio',
      'maanlanding',
      'llegada del hombre a la Luna',
      'alunissagem',
    ]) {
      expect(one(text), text).toMatchObject({ earliest: d('1969-07-20'), latest: d('1969-07-21') });
    }
  });
});

describe('named periods', () => {
  it('reads the periods of the issue', () => {
    expect(one('Victorian family portrait')).toMatchObject({ kind: 'dates', earliest: d('1837-06-20'), latest: d('1901-01-22') });
    expect(one('Edwardian ladies')).toMatchObject({ kind: 'dates', earliest: d('1901-01-22'), latest: d('1910-05-06') });
    expect(one('between the wars')).toMatchObject({ kind: 'between', earliest: d('1918-11-11'), latest: d('1939-09-01') });
    expect(one("l'entre-deux-guerres")).toMatchObject({ kind: 'between' });
    expect(one('interwar housing')).toMatchObject({ kind: 'between' });
    expect(one('Depression era bread line')).toMatchObject({ kind: 'dates', earliest: d('1929-10-24'), latest: d('1939-12-31') });
    expect(one('post-war prefabs')).toMatchObject({ kind: 'not_before', earliest: d('1945-05-08'), latest: null });
    expect(one('Nachkriegszeit')).toMatchObject({ kind: 'not_before' });
    expect(one('turn of the century')).toMatchObject({ kind: 'dates', earliest: d('1895-01-01'), latest: d('1905-12-31') });
    expect(one('um die Jahrhundertwende')).toMatchObject({ kind: 'dates', earliest: d('1895-01-01') });
  });

  it('weighs a period below an event, and states the year precision of a period given in years', () => {
    const r = one('Belle Époque');
    expect(r.confidence).toBe(0.5);
    expect(r.precision).toEqual({ earliest: 'year', latest: 'year' });
  });

  it('turns "after" an era into its end as a bound', () => {
    expect(one('post-Victorian villa')).toMatchObject({ kind: 'not_before', earliest: d('1901-01-22') });
  });
});

describe('ordinary words are not history', () => {
  const NEGATIVES = [
    'the war memorial on the green',
    'Victoria Street, Belfast',
    'Coronation Street',
    'Jubilee Line platform',
    'blitz chess at the club',
    'a depression in the field',
    'Expo 678 catalogue',
    'Empire State Building at night',
    'na Segunda feira',
    'Grandma and Joe at the seaside',
    'Anschluss an das Stromnetz',
    'the turn of the road',
    'Olympia Theatre',
    'a great exhibition of roses',
    'Prohibition sign',
  ];
  it.each(NEGATIVES)('finds nothing in %j', (text) => {
    expect(findHistoricalReferences(text)).toEqual([]);
  });

  it('reads "the war" alone as nothing (it needs after/before/during)', () => {
    expect(findHistoricalReferences('the war years at home')).toEqual([]);
  });

  // "before the war memorial" is a place: a name used to name a thing (a memorial, a museum, a
  // mug) says nothing about when the picture was taken, qualified or not.
  it.each([
    'Group photograph before the war memorial, Ashby',
    'Standing before the War Memorial',
    'after the war memorial service',
    'Wreaths laid during the war graves visit',
    'Boer War veterans at the drill hall',
    'Coronation of George VI mug on the mantelpiece',
    'Festival of Britain site, South Bank, demolished',
  ])('finds no date where a name names a thing: %j', (text) => {
    expect(findHistoricalReferences(text)).toEqual([]);
  });

  it('still reads a name followed by a word that is not a thing', () => {
    expect(one('before the war, Ashby').kind).toBe('not_after');
    expect(one('after the war ended').kind).toBe('not_before');
    expect(one('V-E Day street party').kind).toBe('dates');
    expect(one('Coronation of George VI celebrations').kind).toBe('dates');
  });
});

describe("the archivist's own entries", () => {
  const own: ReadableEntry[] = [...CATALOGUE_ENTRIES, { entry: villageFete, origin: 'own' }];

  it('are read beside the catalogue, marked as the archivist’s', () => {
    const found = findHistoricalReferences('Ashby village fete, V-E Day tea', own);
    expect(found.map((r) => [r.entry.id, r.origin])).toEqual([
      ['ashby-village-fete', 'own'],
      ['ve-day', 'catalogue'],
    ]);
    expect(found[0].reason).toContain('Ashby parish magazine, “August 1923”');
  });
});
