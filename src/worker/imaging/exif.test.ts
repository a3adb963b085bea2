import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_TEXT_CHARS, cleanText, decodeUserComment, embeddedMetadataSchema, readEmbeddedMetadata } from './exif';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus/exif-samples');

const XMP = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
  xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
  xmlns:exif="http://ns.adobe.com/exif/1.0/"
  photoshop:DateCreated="1931-05" xmp:CreateDate="2019-02-03T10:11:12" exif:DateTimeOriginal="1931-05-12T00:00:00">
 <dc:title><rdf:Alt><rdf:li xml:lang="de">Hochzeit</rdf:li><rdf:li xml:lang="x-default">Wedding</rdf:li></rdf:Alt></dc:title>
 <dc:subject><rdf:Bag><rdf:li>wedding</rdf:li><rdf:li>Zürich</rdf:li></rdf:Bag></dc:subject>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;

describe('cleanText', () => {
  it('removes NULs and control characters, trims, and maps empty to null', () => {
    expect(cleanText('  Canon\u0000\u0000')).toBe('Canon');
    expect(cleanText('a\u0001b\u007fc\td\ne')).toBe('abc\td\ne');
    expect(cleanText('\u0000\u0000  ')).toBeNull();
    expect(cleanText('')).toBeNull();
  });

  it(`caps text at ${MAX_TEXT_CHARS} characters and never splits a surrogate pair`, () => {
    const capped = cleanText('x'.repeat(60_000))!;
    expect(capped).toHaveLength(MAX_TEXT_CHARS);
    expect(capped.endsWith('…')).toBe(true);
    const emoji = cleanText('📷'.repeat(3000))!; // 2 UTF-16 units each
    expect(emoji.length).toBeLessThanOrEqual(MAX_TEXT_CHARS);
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe('decodeUserComment', () => {
  const withPrefix = (prefix: string, body: Buffer) =>
    Uint8Array.from(Buffer.concat([Buffer.from(prefix.padEnd(8, '\0'), 'latin1'), body]));

  it('decodes ASCII', () => {
    expect(decodeUserComment(withPrefix('ASCII', Buffer.from('Grandma, 1931   \0\0', 'latin1')))).toBe('Grandma, 1931');
  });
  it('decodes UNICODE in either byte order', () => {
    expect(decodeUserComment(withPrefix('UNICODE', Buffer.from('Oma 1931', 'utf16le')))).toBe('Oma 1931');
    expect(decodeUserComment(withPrefix('UNICODE', Buffer.from('Oma 1931', 'utf16le').swap16()))).toBe('Oma 1931');
  });
  it('decodes the undefined code as UTF-8, falling back to Latin-1', () => {
    expect(decodeUserComment(withPrefix('', Buffer.from('Zürich', 'utf8')))).toBe('Zürich');
    expect(decodeUserComment(withPrefix('', Buffer.from('Zürich', 'latin1')))).toBe('Zürich');
  });
  it('maps the blank comments cameras write to null', () => {
    expect(decodeUserComment(new Uint8Array(264))).toBeNull();
    expect(decodeUserComment(withPrefix('ASCII', Buffer.from(' '.repeat(100))))).toBeNull();
    expect(decodeUserComment(undefined)).toBeNull();
  });
});

describe('readEmbeddedMetadata', () => {
  it('reads XMP and IPTC from the corpus (jpg/xmp/BlueSquare.jpg)', async () => {
    const bytes = await readFile(path.join(corpus, 'jpg/xmp/BlueSquare.jpg'));
    const { fields, error } = await readEmbeddedMetadata(bytes, 'jpeg');
    expect(error).toBeNull();
    expect(embeddedMetadataSchema.parse(fields)).toEqual(fields);
    expect(fields.xmpTitle).toBe('Blue Square Test File - .jpg');
    expect(fields.xmpDescription).toBe('XMPFiles BlueSquare test file, created in Photoshop CS2, saved as .psd, .jpg, and .tif.');
    expect(fields.iptcCaption).toBe(fields.xmpDescription);
    expect(fields.iptcTitle).toBe('Blue Square Test File - .jpg');
    expect(fields.xmpCreateDate).toBe('2005-09-07T15:07:40-07:00');
    expect(fields.modifyDate).toBe('2005:09:07 15:09:51');
    // IPTC Keywords and XMP dc:subject hold the same list: de-duplicated, order kept.
    expect(fields.keywords).toEqual(['XMP', 'Blue Square', 'test file', 'Photoshop', '.jpg']);
  });

  it('reads XMP dates as raw strings (jpg/long_description.jpg)', async () => {
    const bytes = await readFile(path.join(corpus, 'jpg/long_description.jpg'));
    const { fields } = await readEmbeddedMetadata(bytes, 'jpeg');
    expect(fields.xmpDateCreated).toBe('2003-08-31');
    expect(fields.description).toMatch(/^Operation Mountain Viper put the soldiers of A Company/);
  });

  it('keeps EXIF and XMP apart: XMP exif:DateTimeOriginal never overwrites the EXIF tag', async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .jpeg()
      .withExif({ IFD2: { DateTimeOriginal: '1999:12:31 23:59:59' } })
      .withXmp(XMP)
      .toBuffer();
    const { fields, error } = await readEmbeddedMetadata(jpeg, 'jpeg');
    expect(error).toBeNull();
    expect(fields.dateTimeOriginal).toBe('1999:12:31 23:59:59');
    expect(fields.xmpDateTimeOriginal).toBe('1931-05-12T00:00:00');
    expect(fields.xmpDateCreated).toBe('1931-05');
    expect(fields.xmpCreateDate).toBe('2019-02-03T10:11:12');
    expect(fields.xmpTitle).toBe('Wedding'); // x-default wins over the first language
    expect(fields.keywords).toEqual(['wedding', 'Zürich']);
  });

  it.each(['webp', 'png', 'avif'] as const)('reads EXIF and XMP from %s', async (format) => {
    const base = sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } });
    const encoded = format === 'avif' ? base.avif({ effort: 0 }) : base.toFormat(format);
    const bytes = await encoded
      .withExif({ IFD0: { Make: 'EPSON', Model: 'Perfection V700' }, IFD2: { DateTimeOriginal: '1931:05:12 00:00:00' } })
      .withXmp(XMP)
      .toBuffer();
    const meta = await sharp(bytes).metadata();
    const { fields, error } = await readEmbeddedMetadata(bytes, format, { exif: meta.exif, xmp: meta.xmp });
    expect(error).toBeNull();
    expect(fields.make).toBe('EPSON');
    expect(fields.model).toBe('Perfection V700');
    expect(fields.dateTimeOriginal).toBe('1931:05:12 00:00:00');
    expect(fields.xmpDateCreated).toBe('1931-05');
  });

  it('reads IFD0 tags and XMP from TIFF', async () => {
    // libvips writes no EXIF into TIFF, so the IFD0 tags come from a corpus scan-like TIFF.
    const bytes = await readFile(path.join(corpus, 'tiff/Crémieux11.tiff'));
    const { fields, error } = await readEmbeddedMetadata(bytes, 'tiff');
    expect(error).toBeNull();
    expect(fields.artist).toBe('Jean Cornillon');
    expect(fields.software).toBe('Mac OS X 10.5.8 (9L31a)');

    const withXmp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .tiff()
      .withXmp(XMP)
      .toBuffer();
    expect((await readEmbeddedMetadata(withXmp, 'tiff')).fields.xmpDateCreated).toBe('1931-05');
  });

  it('reads IPTC text written as UTF-8', async () => {
    // IPTC-IIM record 2 inside a Photoshop 8BIM resource inside APP13.
    const dataset = (tag: number, value: string) => {
      const v = Buffer.from(value, 'utf8');
      return Buffer.concat([Buffer.from([0x1c, 0x02, tag, v.length >> 8, v.length & 0xff]), v]);
    };
    const iptc = Buffer.concat([dataset(120, 'Hochzeit in Zürich'), dataset(55, '19310512'), dataset(25, 'Familie')]);
    const resource = Buffer.concat([
      Buffer.from('8BIM', 'latin1'),
      Buffer.from([0x04, 0x04, 0, 0]),
      Buffer.from([iptc.length >> 24, (iptc.length >> 16) & 0xff, (iptc.length >> 8) & 0xff, iptc.length & 0xff]),
      iptc,
      iptc.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0),
    ]);
    const app13 = Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource]);
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    const segment = Buffer.concat([Buffer.from([0xff, 0xed, (app13.length + 2) >> 8, (app13.length + 2) & 0xff]), app13]);
    const withIptc = Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
    const { fields } = await readEmbeddedMetadata(withIptc, 'jpeg');
    expect(fields.iptcCaption).toBe('Hochzeit in Zürich');
    expect(fields.iptcDateCreated).toBe('19310512');
    expect(fields.keywords).toEqual(['Familie']);
  });

  it('never throws on corrupted metadata (deterministic byte mutations of a camera file)', async () => {
    const original = await readFile(path.join(corpus, 'jpg/Canon_40D.jpg'));
    let seed = 12345;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    let withErrors = 0;
    for (let i = 0; i < 150; i++) {
      const mutated = Buffer.from(original);
      // Corrupt 1–8 bytes inside the first 2 KB (SOI, APP0, APP1/EXIF headers and IFDs).
      for (let k = 0, n = 1 + (next() % 8); k < n; k++) mutated[2 + (next() % 2046)] = next() & 0xff;
      const { fields, error } = await readEmbeddedMetadata(mutated, 'jpeg');
      expect(embeddedMetadataSchema.safeParse(fields).success, `mutation ${i}`).toBe(true);
      if (error) withErrors++;
    }
    // Some mutations must have hit something exifr complains about, or the test proves nothing.
    expect(withErrors).toBeGreaterThan(0);
  });

  it('returns empty fields and no error for an image without metadata', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const { fields, error } = await readEmbeddedMetadata(png, 'png');
    expect(error).toBeNull();
    expect(fields.dateTimeOriginal).toBeNull();
    expect(fields.keywords).toEqual([]);
  });
});
