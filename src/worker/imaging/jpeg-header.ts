/**
 * What the metadata job needs from a JPEG's header, read from the bytes without a decoder call:
 * the frame size (SOFn), the EXIF orientation, and the raw EXIF and XMP blocks, exactly as the
 * decoder would report them (the APP1 payloads). Most photos in a library are JPEGs, and a
 * decoder call per photo just for its header costs as much as this whole walk many times over.
 *
 * Anything unexpected (no frame header before the scan, a segment running past the end, a zero
 * height defined later by a DNL marker) returns null, and the caller asks the decoder instead.
 */

export interface JpegHeader {
  width: number;
  height: number;
  /** IFD0 Orientation (1–8) from the first EXIF block, or null when absent or out of range. */
  orientation: number | null;
  /** The first APP1 EXIF payload ("Exif\0\0" + TIFF block), as the decoder reports it. */
  exif?: Buffer;
  /** The first APP1 XMP packet, without its namespace prefix. */
  xmp?: Buffer;
}

const EXIF_ID = Buffer.from('Exif\0\0', 'latin1');

/** The TIFF block of an EXIF block, with or without the "Exif\0\0" prefix APP1 segments carry. */
export function tiffFromExifBlock(block: Buffer): Buffer {
  return block.subarray(0, EXIF_ID.length).equals(EXIF_ID) ? block.subarray(EXIF_ID.length) : block;
}
const XMP_ID = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');

/** Start-of-frame markers: C0–CF except DHT (C4), JPG (C8) and DAC (CC). */
function isFrameHeader(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

export function readJpegHeader(bytes: Buffer): JpegHeader | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let frame: { width: number; height: number } | null = null;
  let exif: Buffer | undefined;
  let xmp: Buffer | undefined;
  let i = 2;
  // Metadata segments may follow the frame header: walk every segment up to the scan.
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) return null; // not at a marker: let the decoder judge the file
    const marker = bytes[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xda) break; // start of scan: the header is over
    if (marker === 0xd9) return null; // end of image before any scan
    const length = bytes.readUInt16BE(i + 2);
    const end = i + 2 + length;
    if (length < 2 || end > bytes.length) return null;
    if (isFrameHeader(marker) && !frame) {
      if (length < 7) return null;
      const height = bytes.readUInt16BE(i + 5);
      const width = bytes.readUInt16BE(i + 7);
      if (!width || !height) return null;
      frame = { width, height };
    } else if (marker === 0xe1) {
      const payload = bytes.subarray(i + 4, end);
      if (!exif && payload.subarray(0, EXIF_ID.length).equals(EXIF_ID)) exif = payload;
      else if (!xmp && payload.subarray(0, XMP_ID.length).equals(XMP_ID)) xmp = payload.subarray(XMP_ID.length);
    }
    i = end;
  }
  if (!frame) return null;
  return { ...frame, orientation: exif ? exifOrientation(exif) : null, exif, xmp };
}

/** IFD0 tag 0x0112 of an EXIF block; null when missing, malformed or not 1–8. */
export function exifOrientation(exif: Buffer): number | null {
  const tiff = tiffFromExifBlock(exif);
  if (tiff.length < 8) return null;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const le = order === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return null;
  const ifd0 = u32(4);
  if (ifd0 < 8 || ifd0 + 2 > tiff.length) return null;
  const count = u16(ifd0);
  for (let k = 0; k < count; k++) {
    const entry = ifd0 + 2 + k * 12;
    if (entry + 12 > tiff.length) return null;
    if (u16(entry) !== 0x0112) continue;
    // SHORT, one value, stored in the first two bytes of the value field.
    if (u16(entry + 2) !== 3) return null;
    const value = u16(entry + 8);
    return value >= 1 && value <= 8 ? value : null;
  }
  return null;
}
