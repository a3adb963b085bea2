/**
 * Image formats Circa reads, recognised by their bytes (magic numbers), never by their name.
 *
 * This module has no dependency on sharp, so main (the importer) can use SUPPORTED_EXTENSIONS to
 * decide which files to consider without loading the native image library.
 *
 * The extension only decides whether a file is *considered*; what a file *is* is decided by its
 * bytes. A mislabelled file (a PNG named .jpg) is read as what it really is; a file whose bytes
 * are not a supported image fails permanently with "Not an image".
 */

/** Every format `sniffFormat` can recognise. */
export const KNOWN_FORMATS = ['jpeg', 'png', 'tiff', 'webp', 'gif', 'avif', 'heic'] as const;
export type KnownFormat = (typeof KNOWN_FORMATS)[number];

/**
 * Formats the worker can decode. HEIC (HEVC-coded HEIF) is recognised but not decodable by the
 * prebuilt sharp/libvips (it ships the AV1 decoder only, for patent reasons), so a HEIC file
 * fails with a readable "Unsupported image format" message instead of a codec error.
 */
export const SUPPORTED_FORMATS = ['jpeg', 'png', 'tiff', 'webp', 'gif', 'avif'] as const;
export type ImageFormat = (typeof SUPPORTED_FORMATS)[number];

export const FORMAT_LABELS: Record<KnownFormat, string> = {
  jpeg: 'JPEG',
  png: 'PNG',
  tiff: 'TIFF',
  webp: 'WebP',
  gif: 'GIF',
  avif: 'AVIF',
  heic: 'HEIC',
};

const EXTENSIONS_BY_FORMAT: Record<ImageFormat, readonly string[]> = {
  jpeg: ['.jpg', '.jpeg', '.jpe', '.jfif'],
  png: ['.png'],
  tiff: ['.tif', '.tiff'],
  webp: ['.webp'],
  gif: ['.gif'],
  avif: ['.avif'],
};

/** Lowercase extensions, with the dot, of files the importer should consider. */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.freeze(SUPPORTED_FORMATS.flatMap((f) => EXTENSIONS_BY_FORMAT[f]));

const EXTENSION_SET = new Set(SUPPORTED_EXTENSIONS);

/** HEIC/HEIF by name: recognised so an import can say why it skips them (they cannot be decoded). */
const HEIF_EXTENSIONS = new Set(['.heic', '.heif', '.hif', '.heics', '.heifs']);

function extensionOf(fileName: string): string | null {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0 || dot < Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'))) return null;
  return fileName.slice(dot).toLowerCase();
}

export function isHeifName(fileName: string): boolean {
  const ext = extensionOf(fileName);
  return ext !== null && HEIF_EXTENSIONS.has(ext);
}

/** True when a file name or path ends with a supported extension (case-insensitive). */
export function hasSupportedExtension(fileName: string): boolean {
  const ext = extensionOf(fileName);
  return ext !== null && EXTENSION_SET.has(ext);
}

export function isSupportedFormat(format: string): format is ImageFormat {
  return (SUPPORTED_FORMATS as readonly string[]).includes(format);
}

/** How many leading bytes `sniffFormat` wants to see (fewer still works for most formats). */
export const SNIFF_BYTES = 64;

const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1']);

function ascii(bytes: Uint8Array, start: number, length: number): string {
  let s = '';
  for (let i = start; i < start + length && i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[offset + i] !== prefix[i]) return false;
  return true;
}

/**
 * The format of an image from its first bytes (pass at least SNIFF_BYTES when available), or
 * null when the bytes are not an image format Circa knows.
 */
export function sniffFormat(firstBytes: Uint8Array): KnownFormat | null {
  const b = firstBytes;
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  // Classic TIFF (II*\0 / MM\0*) and BigTIFF (II+\0 / MM\0+).
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(b, [0x49, 0x49, 0x2b, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2b])) return 'tiff';
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'webp';
  // ISO-BMFF: [size:4]['ftyp'][major brand:4][minor version:4][compatible brands:4×n]
  if (b.length >= 12 && ascii(b, 4, 4) === 'ftyp') {
    const boxSize = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
    const end = Math.min(b.length, boxSize >= 16 ? boxSize : 16);
    const brands = [ascii(b, 8, 4)];
    for (let off = 16; off + 4 <= end; off += 4) brands.push(ascii(b, off, 4));
    if (brands.some((x) => AVIF_BRANDS.has(x))) return 'avif';
    if (brands.some((x) => HEIC_BRANDS.has(x))) return 'heic';
  }
  return null;
}

/** "3f 8a 00 …" — the first bytes of a file, for error messages. */
export function describeFirstBytes(bytes: Uint8Array, count = 8): string {
  const shown = Array.from(bytes.subarray(0, count), (x) => x.toString(16).padStart(2, '0')).join(' ');
  return bytes.length > count ? `${shown} …` : shown;
}
