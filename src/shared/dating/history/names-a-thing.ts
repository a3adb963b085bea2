// A name used to name a thing says nothing about when the picture was taken: "before the war
// memorial" is where the group stood, not "before the war"; "Boer War veterans", a "Coronation
// mug", the "Festival of Britain site" can be photographed any year after. English puts such a
// name before the noun it qualifies, so a reading is dropped when the next word is a noun for a
// thing, a place or the people the event left behind. (German and Dutch write these as one word —
// "Kriegerdenkmal", "oorlogsmonument" — which whole-word matching never reads; French, Spanish,
// Italian and Portuguese put the noun first, "monument aux morts de la guerre", so the name is
// not the qualifier there.) Words that name a time or an occasion ("years", "celebrations",
// "party", "ended") are not in the list: those still date the picture; nor are words that often
// qualify the next noun themselves ("street party", "garden party").

const THING_NOUNS = [
  // memorials and what is kept
  'memorial',
  'memorials',
  'monument',
  'monuments',
  'museum',
  'cemetery',
  'cemeteries',
  'grave',
  'graves',
  'plaque',
  'cross',
  'shrine',
  'statue',
  'tablet',
  'archive',
  'archives',
  // buildings, places and institutions
  'office',
  'ministry',
  'department',
  'hospital',
  'hall',
  'building',
  'buildings',
  'site',
  'grounds',
  'stadium',
  'pavilion',
  'bridge',
  'clock',
  'tower',
  'fountain',
  'shelter',
  'shelters',
  // objects
  'mug',
  'mugs',
  'medal',
  'medals',
  'souvenir',
  'souvenirs',
  'poster',
  'posters',
  'bond',
  'bonds',
  'stamp',
  'stamps',
  'coin',
  'coins',
  'plate',
  'tin',
  // the people it left behind
  'veteran',
  'veterans',
  'widow',
  'widows',
  'orphans',
  'pensioners',
];

const FOLLOWED_BY_A_THING = new RegExp(`^[\\s\\-]+(?:${THING_NOUNS.join('|')})(?![\\p{L}\\p{N}])`, 'iu');

/** Whether the words right after a name (ending at `end` in `text`) make it name a thing, not a time. */
export function namesAThing(text: string, end: number): boolean {
  return FOLLOWED_BY_A_THING.test(text.slice(end, end + 24));
}
