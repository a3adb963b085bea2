import { describe, expect, it } from 'vitest';
import { xmpDateFor } from './xmp-tags';

describe('xmpDateFor: the precision that is actually known', () => {
  it('a known day, a whole month, a whole year', () => {
    expect(xmpDateFor(19470612, 19470612)).toBe('1947:06:12');
    expect(xmpDateFor(19310501, 19310531)).toBe('1931:05');
    expect(xmpDateFor(19350101, 19351231)).toBe('1935');
  });

  it('coarsens to the unit that holds the whole interval, never claiming a day that is not known', () => {
    expect(xmpDateFor(19350601, 19350831)).toBe('1935'); // summer 1935
    expect(xmpDateFor(19350610, 19350620)).toBe('1935:06');
  });

  it('writes nothing when no single year holds it, or an end is open', () => {
    expect(xmpDateFor(19350101, 19421231)).toBeNull();
    expect(xmpDateFor(null, 18671231)).toBeNull();
    expect(xmpDateFor(19230101, null)).toBeNull();
  });
});
