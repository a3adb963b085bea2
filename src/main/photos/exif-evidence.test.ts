import { describe, expect, it } from 'vitest';
import type { EmbeddedMetadata } from '../../shared/jobs/outputs/photo-metadata';
import { decodePrecision, toDacs, toEdtf } from '../../shared/dating';
import { decideScan, exifDateEvidence } from './exif-evidence';

function exif(fields: Partial<EmbeddedMetadata>): EmbeddedMetadata {
  const none = Object.fromEntries(
    [
      'dateTimeOriginal',
      'createDate',
      'modifyDate',
      'offsetTimeOriginal',
      'make',
      'model',
      'software',
      'lensModel',
      'artist',
      'copyright',
      'description',
      'userComment',
      'gpsLatitude',
      'gpsLongitude',
      'orientation',
      'xmpTitle',
      'xmpDescription',
      'xmpDateCreated',
      'xmpCreateDate',
      'xmpDateTimeOriginal',
      'iptcCaption',
      'iptcTitle',
      'iptcDateCreated',
      'iptcTimeCreated',
    ].map((k) => [k, null]),
  );
  return { ...none, keywords: [], ...fields } as EmbeddedMetadata;
}

const SONY = exif({ make: 'SONY', model: 'CYBERSHOT', dateTimeOriginal: '2000:09:30 14:02:11' });
const EPSON_SCAN = { isScan: true, reason: 'Make/Model "EPSON Perfection V600" is an Epson scanner' };
const NO_SCANNER = { isScan: false, reason: null };

describe('which files are scans (issue 14 item 6)', () => {
  it('a camera make/model that is not a scanner is a camera original, whatever the import assumed', () => {
    for (const policy of ['detect', 'originals', null] as const) {
      expect(decideScan({ policy, override: null, scanner: NO_SCANNER, exif: SONY })).toMatchObject({ isScan: false });
    }
    expect(decideScan({ policy: 'detect', override: null, scanner: NO_SCANNER, exif: SONY }).reason).toContain('SONY CYBERSHOT');
  });

  it('…unless the archivist says so, for the import or for the photo', () => {
    expect(decideScan({ policy: 'all_scans', override: null, scanner: NO_SCANNER, exif: SONY })).toMatchObject({ isScan: true });
    expect(decideScan({ policy: 'detect', override: 'scan', scanner: NO_SCANNER, exif: SONY })).toMatchObject({
      isScan: true,
      reason: 'You marked this photo as a scan',
    });
  });

  it('a scanner in the EXIF is a scan; a photo override still wins', () => {
    expect(decideScan({ policy: 'originals', override: null, scanner: EPSON_SCAN, exif: exif({}) })).toMatchObject({
      isScan: true,
      reason: EPSON_SCAN.reason,
    });
    expect(decideScan({ policy: 'detect', override: 'original', scanner: EPSON_SCAN, exif: exif({}) })).toMatchObject({
      isScan: false,
    });
  });

  it('a file that names no device follows the import: scans by default, originals if the import said so', () => {
    expect(decideScan({ policy: 'detect', override: null, scanner: NO_SCANNER, exif: exif({}) })).toMatchObject({ isScan: true });
    expect(decideScan({ policy: 'originals', override: null, scanner: NO_SCANNER, exif: exif({}) })).toMatchObject({
      isScan: false,
    });
  });
});

describe('EXIF dates as evidence', () => {
  it('a camera original’s date is a strong estimate of the day', () => {
    const [e] = exifDateEvidence(SONY, { isScan: false, reason: 'camera' });
    expect(e).toMatchObject({ kind: 'estimate', earliest: 20000930, latest: 20000930, precision: 'day' });
  });

  it('a scan date is a "not after" bound that keeps its day (issue 14 item 2)', () => {
    const [e] = exifDateEvidence(exif({ dateTimeOriginal: '2000:09:30 10:00:00' }), { isScan: true, reason: 'scan' });
    expect(e).toMatchObject({ kind: 'bound', earliest: null, latest: 20000930, precision: 'day' });
    const format = { precision: decodePrecision(e.precision) };
    expect(toEdtf(e.earliest, e.latest, format)).toBe('../2000-09-30');
    expect(toDacs(e.earliest, e.latest, format)).toBe('not after 2000 September 30');
  });

  // Issue 14 item 7.
  it('a file whose only date is its EXIF ModifyDate gets a weak, pending "not after" bound that says so', () => {
    const [e] = exifDateEvidence(exif({ modifyDate: '2009:10:09 08:00:00' }), { isScan: true, reason: 'scan' });
    expect(e).toMatchObject({ kind: 'bound', earliest: null, latest: 20091009, precision: 'day' });
    expect(e.summary).toMatch(/last saved 2009-10-09/);
    expect(e.details).toMatchObject({ origin: 'modified', field: 'ModifyDate' });
  });

  it('a ModifyDate beside an original date is left out, and the details say why', () => {
    const found = exifDateEvidence(exif({ ...SONY, modifyDate: '2009:10:09 08:00:00' }), { isScan: false, reason: 'camera' });
    expect(found).toHaveLength(1);
    expect(found[0].details).toMatchObject({ origin: 'capture', ignored: [expect.stringContaining('ModifyDate 2009:10:09')] });
  });
});
