// Which years can be the date of a photograph, and how to read two-digit years.
import type { FoundDate } from './types';
import { yearEnd, yearStart } from './daynum';

/** Niépce's first surviving camera photograph dates from 1826–27: no photo is older. */
export const FIRST_PHOTOGRAPH_YEAR = 1826;

export function currentYear(): number {
  return new Date().getFullYear();
}

/**
 * Two-digit years ("'47", "12.6.47") resolve into the 1900s, unless that
 * would be after the reference year (default: the current year), in which
 * case they resolve into the 1800s. The archive is of old photographs, so the
 * 2000s are never chosen: with reference year 2025, "'05" reads as 1905.
 */
export function resolveTwoDigitYear(twoDigits: number, referenceYear: number): number {
  const inTheNineteenHundreds = 1900 + twoDigits;
  return inTheNineteenHundreds <= referenceYear ? inTheNineteenHundreds : 1800 + twoDigits;
}

/**
 * Keeps the part of a found interval that a photograph can have: from 1826 to
 * the end of the reference year. A date wholly outside is not a photo date
 * (null). A partly outside one is clipped rather than dropped, so "the 1820s"
 * still says "not after 1829".
 */
export function fitToPhotoEra<T extends FoundDate>(found: T, referenceYear: number): T | null {
  const earliest = Math.max(found.earliest, yearStart(FIRST_PHOTOGRAPH_YEAR));
  const latest = Math.min(found.latest, yearEnd(referenceYear));
  if (earliest > latest) return null;
  if (earliest === found.earliest && latest === found.latest) return found;
  // A clipped interval is no longer the one written: its EDTF is the interval's (extract-dates.ts).
  return { ...found, earliest, latest, edtf: undefined };
}
