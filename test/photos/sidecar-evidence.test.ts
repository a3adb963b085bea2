/**
 * Earlier cataloguing read as evidence by the metadata job (real import, real worker): an XMP
 * sidecar next to the scan (digiKam's photo.jpg.xmp, Lightroom's photo.xmp) and embedded
 * IPTC/XMP dates, each finding naming its source; a sidecar Circa wrote is not evidence.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExifTool } from 'exiftool-vendored';
import type { Core } from '../../src/main/core/core';
import { readSidecar } from '../../src/worker/imaging/sidecar';
import { CIRCA_XMP_NAMESPACE } from '../../src/shared/export/xmp-tags';
import { openTestCore, tempDir, waitFor } from '../support/core';

const CORPUS = path.resolve('../shared/corpus/exif-samples/jpg/Canon_40D.jpg');

/** digiKam writes elements and an rdf:Seq for dc:date. */
const DIGIKAM = `<?xml version="1.0" encoding="UTF-8"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
   <photoshop:DateCreated>1931-05</photoshop:DateCreated>
   <dc:date><rdf:Seq><rdf:li>1931-05-12</rdf:li></rdf:Seq></dc:date>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>`;

/** Lightroom writes properties as attributes. */
const LIGHTROOM = `<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:DateCreated="1948"/>
 </rdf:RDF>
</x:xmpmeta>`;

describe('readSidecar', () => {
  it('reads digiKam and Lightroom sidecars, and knows one Circa wrote', async () => {
    const dir = tempDir();
    const a = path.join(dir, 'a.jpg');
    const b = path.join(dir, 'b.tif');
    fs.writeFileSync(`${a}.xmp`, DIGIKAM);
    fs.writeFileSync(path.join(dir, 'b.xmp'), LIGHTROOM);
    expect(await readSidecar(a)).toEqual({
      file: `${a}.xmp`,
      dateCreated: '1931-05',
      dcDate: '1931-05-12',
      writtenByCirca: false,
      error: null,
    });
    expect(await readSidecar(b)).toMatchObject({ file: path.join(dir, 'b.xmp'), dateCreated: '1948', dcDate: null });
    expect(await readSidecar(path.join(dir, 'none.jpg'))).toBeNull();
    fs.writeFileSync(`${a}.xmp`, DIGIKAM.replace('xmlns:dc=', `xmlns:circa="${CIRCA_XMP_NAMESPACE}" xmlns:dc=`));
    expect(await readSidecar(a)).toMatchObject({ writtenByCirca: true });
    fs.writeFileSync(`${a}.xmp`, '<x:xmpmeta><rdf:RDF><broken');
    expect((await readSidecar(a))?.dateCreated ?? null).toBeNull();
  });
});

describe('metadata job', () => {
  let core: Core;
  let exiftool: ExifTool;
  beforeAll(() => {
    core = openTestCore({ concurrency: 1 });
    exiftool = new ExifTool({ maxProcs: 1 });
  });
  afterAll(async () => {
    await exiftool.end();
    await core.close();
  });

  it('records dates from a sidecar and from embedded IPTC/XMP as evidence, naming where each was read', async () => {
    const dir = tempDir('circa-catalogued-');
    fs.copyFileSync(CORPUS, path.join(dir, 'sidecar.jpg'));
    fs.writeFileSync(path.join(dir, 'sidecar.jpg.xmp'), DIGIKAM);
    const embedded = path.join(dir, 'embedded.jpg');
    fs.copyFileSync(CORPUS, embedded);
    await exiftool.write(embedded, { 'IPTC:DateCreated': '1936:07:04', 'XMP-photoshop:DateCreated': '1936:07:04' } as never, {
      writeArgs: ['-overwrite_original'],
    });
    core.importer.start([dir]);
    await waitFor(() => core.jobs.counts().success === 2 || core.jobs.counts().failed, 60_000, 'the metadata jobs');
    expect(core.jobs.counts().failed).toBe(0);
    const summaries = (name: string) =>
      core.db.sqlite
        .prepare(
          "SELECT e.summary FROM evidence e JOIN photos p ON p.id = e.photo_id WHERE p.filename = ? AND e.source = 'exif' ORDER BY e.id",
        )
        .pluck()
        .all(name);
    expect(summaries('sidecar.jpg')).toEqual(
      expect.arrayContaining([
        'Catalogued as 1931-05 (XMP sidecar sidecar.jpg.xmp, photoshop:DateCreated)',
        'Catalogued as 1931-05-12 (XMP sidecar sidecar.jpg.xmp, dc:date)',
      ]),
    );
    expect(summaries('embedded.jpg')).toEqual(
      expect.arrayContaining(['Catalogued as 1936-07-04 (IPTC DateCreated; XMP photoshop:DateCreated)']),
    );
    // The sidecar was read, never written.
    expect(fs.readFileSync(path.join(dir, 'sidecar.jpg.xmp'), 'utf8')).toBe(DIGIKAM);
  });
});
