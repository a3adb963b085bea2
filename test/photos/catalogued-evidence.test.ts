import { describe, expect, it } from 'vitest';
import { cataloguedDateEvidence, parseCataloguedDate } from '../../src/main/photos/catalogued-evidence';
import { emptyEmbeddedMetadata } from '../../src/worker/imaging/exif';

describe('parseCataloguedDate', () => {
  it('reads XMP and IPTC dates at the precision written', () => {
    expect(parseCataloguedDate('1931')).toMatchObject({ earliest: 19310101, latest: 19311231, precision: 'year' });
    expect(parseCataloguedDate('1931-05')).toMatchObject({ earliest: 19310501, latest: 19310531, precision: 'month' });
    expect(parseCataloguedDate('1931:05:12 10:00:00')).toMatchObject({ earliest: 19310512, latest: 19310512, precision: 'day' });
    expect(parseCataloguedDate('1931-05-12T10:00:00+01:00')).toMatchObject({ earliest: 19310512, precision: 'day' });
    expect(parseCataloguedDate('19310512')).toMatchObject({ earliest: 19310512, precision: 'day' });
    expect(parseCataloguedDate('19310500')).toMatchObject({ earliest: 19310501, latest: 19310531, precision: 'month' });
    expect(parseCataloguedDate('19310000')).toMatchObject({ precision: 'year' });
  });

  it('refuses what is not a date of a photograph', () => {
    for (const bad of [null, '', 'circa 1930', '1931-13', '1931-02-30', '1700', '3000', '193105121']) {
      expect(parseCataloguedDate(bad)).toBeNull();
    }
  });
});

describe('cataloguedDateEvidence', () => {
  it('one finding per date, naming every place it was read, embedded and in a sidecar', () => {
    const exif = { ...emptyEmbeddedMetadata(), iptcDateCreated: '19310500', xmpDateCreated: '1931-05' };
    const found = cataloguedDateEvidence(exif, {
      file: '/scans/box/scan.jpg.xmp',
      dateCreated: '1929',
      dcDate: null,
      writtenByCirca: false,
      error: null,
    });
    expect(found.map((f) => f.summary)).toEqual([
      'Catalogued as 1931-05 (IPTC DateCreated; XMP photoshop:DateCreated)',
      'Catalogued as 1929 (XMP sidecar scan.jpg.xmp, photoshop:DateCreated)',
    ]);
    expect(found[1]).toMatchObject({
      kind: 'estimate',
      earliest: 19290101,
      latest: 19291231,
      confidence: 0.8,
      precision: 'year',
    });
    expect(found[1].details).toMatchObject({ sidecar: '/scans/box/scan.jpg.xmp' });
  });

  it('ignores a copy of the camera or scan date, and a sidecar Circa wrote', () => {
    const exif = { ...emptyEmbeddedMetadata(), createDate: '2005:03:01 10:00:00', iptcDateCreated: '20050301' };
    expect(cataloguedDateEvidence(exif, null)).toEqual([]);
    const ours = { file: '/a.jpg.xmp', dateCreated: '1931', dcDate: '1931', writtenByCirca: true, error: null };
    expect(cataloguedDateEvidence(emptyEmbeddedMetadata(), ours)).toEqual([]);
  });
});
