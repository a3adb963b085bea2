/**
 * Selected EXIF / XMP / IPTC fields, read with exifr from bytes already in memory.
 *
 * Dates are kept as the RAW STRINGS found in the file ("2008:05:30 15:56:01", "1931-05",
 * "19310512"): exifr's `reviveValues` is off, so nothing is ever turned into a JS Date and no
 * machine time zone can shift a date. Interpreting them is the dating engine's job.
 *
 * Every string is cleaned (NULs and control characters removed, trimmed, empty → null) and capped
 * at MAX_TEXT_CHARS, so a hostile 60 KB ImageDescription cannot bloat the job's result.
 * A malformed block never throws: its error is reported in `error` and what could be read is kept.
 */
import * as exifrModule from 'exifr';
import {
  embeddedMetadataSchema,
  MAX_KEYWORD_CHARS,
  MAX_KEYWORDS,
  MAX_TEXT_CHARS,
  type EmbeddedMetadata,
} from '../../shared/jobs/outputs/photo-metadata';
import type { ImageFormat } from '../../shared/image-formats';
import { tiffFromExifBlock } from './jpeg-header';

export { embeddedMetadataSchema, MAX_TEXT_CHARS, type EmbeddedMetadata };

const MAX_XMP_BYTES = 2 * 1024 * 1024;

export interface EmbeddedMetadataResult {
  fields: EmbeddedMetadata;
  /** Why (part of) the metadata could not be read, or null. Never fatal. */
  error: string | null;
}

/** Raw metadata blocks sharp found, for containers exifr cannot walk itself (WebP, GIF). */
export interface SharpMetadataBlocks {
  exif?: Buffer;
  xmp?: Buffer;
}

export function emptyEmbeddedMetadata(): EmbeddedMetadata {
  return {
    dateTimeOriginal: null,
    createDate: null,
    modifyDate: null,
    offsetTimeOriginal: null,
    make: null,
    model: null,
    software: null,
    lensModel: null,
    artist: null,
    copyright: null,
    description: null,
    userComment: null,
    gpsLatitude: null,
    gpsLongitude: null,
    orientation: null,
    xmpTitle: null,
    xmpDescription: null,
    xmpDateCreated: null,
    xmpDcDate: null,
    xmpCreateDate: null,
    xmpDateTimeOriginal: null,
    iptcCaption: null,
    iptcTitle: null,
    iptcDateCreated: null,
    iptcTimeCreated: null,
    keywords: [],
  };
}

// exifr caches parsed options by object identity (an unbounded Map), so these objects must be
// module constants: a fresh object per call would leak one cache entry per file imported.
// exifr ships ESM (named exports) and UMD (everything on the CommonJS default export); take the
// functions from wherever the runtime put them.
type ExifrApi = Pick<typeof exifrModule, 'parse' | 'sidecar'>;
const exifr: ExifrApi =
  typeof exifrModule.sidecar === 'function' ? exifrModule : (exifrModule as unknown as { default: ExifrApi }).default;

type ExifrOptions = Exclude<NonNullable<Parameters<ExifrApi['parse']>[1]>, boolean | readonly unknown[]>;

const CONTAINER_OPTIONS = {
  // ifd0 is always read.
  exif: true,
  gps: true,
  interop: false,
  ifd1: false,
  makerNote: false,
  userComment: true,
  // XMP is returned raw and parsed separately: parsed XMP's exif:/tiff: namespaces would be
  // merged into the EXIF blocks and could overwrite the real EXIF values with XMP ones.
  xmp: { parse: false },
  iptc: true,
  icc: false,
  jfif: false,
  ihdr: false,
  translateKeys: true,
  translateValues: false,
  reviveValues: false,
  sanitize: true,
  mergeOutput: false,
  silentErrors: true,
} as ExifrOptions;

const TIFF_BLOCK_OPTIONS = { ...CONTAINER_OPTIONS, xmp: false, iptc: false } as ExifrOptions;

const XMP_OPTIONS = {
  xmp: true,
  tiff: false,
  translateKeys: true,
  translateValues: false,
  reviveValues: false,
  mergeOutput: false,
  silentErrors: true,
} as ExifrOptions;

type Dict = Record<string, unknown>;

function isDict(v: unknown): v is Dict {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

function dict(v: unknown): Dict {
  return isDict(v) ? v : {};
}

// ---------------------------------------------------------------------------------------------
// Text cleaning

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** Remove NULs and control characters (keeping tab and newlines), trim, cap; empty → null. */
export function cleanText(raw: string, max = MAX_TEXT_CHARS): string | null {
  // Bound the work before any regex runs on a hostile, huge value.
  let s = raw.length > max * 4 ? raw.slice(0, max * 4) : raw;
  s = s.replace(CONTROL_CHARS, '').trim();
  if (s.length === 0) return null;
  if (s.length > max) {
    s = s.slice(0, max - 1);
    const last = s.charCodeAt(s.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) s = s.slice(0, -1); // never split a surrogate pair
    s = `${s.trimEnd()}…`;
  }
  return s;
}

const utf8Fatal = new TextDecoder('utf-8', { fatal: true });

function decodeBytes(bytes: Uint8Array): string {
  try {
    return utf8Fatal.decode(bytes);
  } catch {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  }
}

/** Any value exifr may return for a text tag, as cleaned text. */
function toText(v: unknown, max = MAX_TEXT_CHARS, depth = 0): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return cleanText(v, max);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  if (typeof v === 'bigint') return String(v);
  if (v instanceof Uint8Array) return cleanText(decodeBytes(v.subarray(0, max * 4)), max);
  if (depth > 3) return null;
  if (Array.isArray(v)) {
    const parts = v
      .slice(0, 50)
      .map((x) => toText(x, max, depth + 1))
      .filter((x): x is string => x !== null);
    return parts.length ? cleanText(parts.join(', '), max) : null;
  }
  if (isDict(v) && 'value' in v) return toText(v.value, max, depth + 1);
  return null;
}

/** XMP language alternatives: prefer x-default, else the first. */
function xmpLangText(v: unknown): string | null {
  if (Array.isArray(v)) {
    const preferred = v.find((x) => isDict(x) && x.lang === 'x-default') ?? v[0];
    return toText(preferred);
  }
  return toText(v);
}

/** IPTC text is read as Latin-1 by exifr, but is UTF-8 in most files written after ~2005. */
function iptcText(v: unknown, max = MAX_TEXT_CHARS): string | null {
  if (typeof v !== 'string') return toText(v, max);
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u007f]*$/.test(v)) return cleanText(v, max);
  const bytes = Buffer.from(v.slice(0, max * 4), 'latin1');
  try {
    return cleanText(utf8Fatal.decode(bytes), max);
  } catch {
    return cleanText(v, max);
  }
}

/**
 * EXIF UserComment: an 8-byte character-code prefix then the text.
 * "ASCII\0\0\0", "UNICODE\0" (UCS-2, byte order of the TIFF block, guessed here), "JIS\0\0\0\0\0",
 * or eight NULs ("undefined", in practice UTF-8 or Latin-1).
 */
export function decodeUserComment(v: unknown): string | null {
  if (!(v instanceof Uint8Array)) return toText(v);
  if (v.length < 8) return toText(v);
  const prefix = Buffer.from(v.buffer, v.byteOffset, 8).toString('latin1');
  const body = Buffer.from(v.buffer, v.byteOffset + 8, Math.min(v.length - 8, MAX_TEXT_CHARS * 8));
  if (prefix.startsWith('ASCII')) return cleanText(decodeBytes(body));
  if (prefix.startsWith('UNICODE')) {
    let le = true;
    if (body[0] === 0xfe && body[1] === 0xff) le = false;
    else if (!(body[0] === 0xff && body[1] === 0xfe)) {
      // Latin text in UCS-2: the zero byte of each pair shows the byte order.
      let evenZeros = 0;
      let oddZeros = 0;
      for (let i = 0; i + 1 < body.length && i < 512; i += 2) {
        if (body[i] === 0) evenZeros++;
        if (body[i + 1] === 0) oddZeros++;
      }
      le = oddZeros >= evenZeros;
    }
    const even = body.subarray(0, body.length - (body.length % 2));
    const units = le ? Buffer.from(even) : Buffer.from(even).swap16();
    return cleanText(units.toString('utf16le').replace(/^\ufeff/, ''));
  }
  if (prefix.startsWith('JIS')) {
    try {
      return cleanText(new TextDecoder('shift_jis').decode(body));
    } catch {
      return cleanText(body.toString('latin1'));
    }
  }
  return cleanText(decodeBytes(body));
}

/** The first of an XMP sequence (or the value itself). */
function firstText(v: unknown): string | null {
  return toText(Array.isArray(v) ? v[0] : v);
}

/** A standalone XMP packet or sidecar file, parsed as exifr does for embedded XMP (no EXIF merge, no revived dates). */
export async function parseXmp(bytes: Buffer): Promise<Record<string, Record<string, unknown>>> {
  const parsed = dict(await exifr.sidecar(bytes, XMP_OPTIONS, 'xmp'));
  return Object.fromEntries(Object.entries(parsed).map(([ns, v]) => [ns, dict(v)]));
}

export { firstText };

function orientationOf(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 8 ? v : null;
}

function coordinate(v: unknown, limit: number): number | null {
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= limit ? v : null;
}

function keywordsOf(iptcKeywords: unknown, xmpSubject: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (v: unknown, decode: (v: unknown, max: number) => string | null, depth: number): void => {
    if (out.length >= MAX_KEYWORDS || depth > 3) return;
    if (Array.isArray(v)) {
      for (const x of v.slice(0, MAX_KEYWORDS * 2)) add(x, decode, depth + 1);
      return;
    }
    if (isDict(v) && 'value' in v) return add(v.value, decode, depth + 1);
    const k = decode(v, MAX_KEYWORD_CHARS);
    if (k && !seen.has(k)) {
      seen.add(k);
      out.push(k);
    }
  };
  add(iptcKeywords, iptcText, 0);
  add(xmpSubject, (v, max) => toText(v, max), 0);
  return out;
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

// ---------------------------------------------------------------------------------------------

function exifrCanRead(format: ImageFormat): boolean {
  return format === 'jpeg' || format === 'tiff' || format === 'png' || format === 'avif';
}

/** The TIFF structure inside an "Exif\0\0"-prefixed block (as sharp returns it). */
/**
 * Read the selected fields from an image already in memory. `format` is the sniffed format;
 * `fromSharp` supplies the raw EXIF/XMP blocks for containers exifr does not parse (WebP, GIF).
 */
export async function readEmbeddedMetadata(
  /** The file's bytes, or its path (see below). */
  bytes: Buffer | string,
  format: ImageFormat,
  fromSharp: SharpMetadataBlocks = {},
): Promise<EmbeddedMetadataResult> {
  const errors: string[] = [];
  let container: Dict = {};
  let xmpRaw: Uint8Array | null = null;

  // From a path exifr reads only the parts it needs of a JPEG or PNG; a TIFF it still reads whole
  // (its IFDs may be anywhere), and the decoder's EXIF block of a TIFF lacks fields exifr finds.
  const exifrReads = exifrCanRead(format);
  try {
    if (exifrReads) {
      container = dict(await exifr.parse(bytes, CONTAINER_OPTIONS));
      if (typeof container.xmp === 'string') xmpRaw = Buffer.from(container.xmp, 'utf8');
    } else if (fromSharp.exif && fromSharp.exif.length > 8) {
      container = dict(await exifr.parse(tiffFromExifBlock(fromSharp.exif), TIFF_BLOCK_OPTIONS));
    }
  } catch (err) {
    errors.push(`EXIF: ${errorText(err)}`);
  }
  if (Array.isArray(container.errors)) {
    for (const e of container.errors.slice(0, 5)) errors.push(`EXIF: ${errorText(e)}`);
  }
  // The container held no readable EXIF but the decoder found a block (e.g. where exifr does not
  // look for it): read that block directly.
  if (!isDict(container.ifd0) && exifrReads && fromSharp.exif && fromSharp.exif.length > 8) {
    try {
      const direct = dict(await exifr.parse(tiffFromExifBlock(fromSharp.exif), TIFF_BLOCK_OPTIONS));
      if (isDict(direct.ifd0)) {
        container = { ...container, ...direct };
        errors.length = 0;
      }
    } catch {
      // keep the first error
    }
  }
  if (!xmpRaw && fromSharp.xmp && fromSharp.xmp.length > 0) xmpRaw = fromSharp.xmp;

  let xmp: Dict = {};
  if (xmpRaw && xmpRaw.length > MAX_XMP_BYTES) {
    errors.push(`XMP: packet of ${xmpRaw.length} bytes is larger than ${MAX_XMP_BYTES} bytes, not read`);
  } else if (xmpRaw && xmpRaw.length > 0) {
    try {
      xmp = dict(await exifr.sidecar(xmpRaw as Buffer, XMP_OPTIONS, 'xmp'));
    } catch (err) {
      errors.push(`XMP: ${errorText(err)}`);
    }
  }

  const ifd0 = dict(container.ifd0);
  const exif = dict(container.exif);
  const gps = dict(container.gps);
  const iptc = dict(container.iptc);
  const dc = dict(xmp.dc);
  const photoshop = dict(xmp.photoshop);
  const xmpBasic = { ...dict(xmp.xap), ...dict(xmp.xmp) };
  const xmpExif = dict(xmp.exif);

  const fields: EmbeddedMetadata = {
    dateTimeOriginal: toText(exif.DateTimeOriginal),
    createDate: toText(exif.CreateDate),
    modifyDate: toText(ifd0.ModifyDate),
    offsetTimeOriginal: toText(exif.OffsetTimeOriginal),
    make: toText(ifd0.Make),
    model: toText(ifd0.Model),
    software: toText(ifd0.Software),
    lensModel: toText(exif.LensModel),
    artist: toText(ifd0.Artist),
    copyright: toText(ifd0.Copyright),
    description: toText(ifd0.ImageDescription),
    userComment: decodeUserComment(container.userComment ?? exif.UserComment),
    gpsLatitude: coordinate(gps.latitude, 90),
    gpsLongitude: coordinate(gps.longitude, 180),
    orientation: orientationOf(ifd0.Orientation),
    xmpTitle: xmpLangText(dc.title),
    xmpDescription: xmpLangText(dc.description),
    xmpDateCreated: toText(photoshop.DateCreated),
    xmpDcDate: firstText(dc.date),
    xmpCreateDate: toText(xmpBasic.CreateDate),
    xmpDateTimeOriginal: toText(xmpExif.DateTimeOriginal),
    iptcCaption: iptcText(iptc.Caption),
    iptcTitle: iptcText(iptc.ObjectName),
    iptcDateCreated: iptcText(iptc.DateCreated),
    iptcTimeCreated: iptcText(iptc.TimeCreated),
    keywords: keywordsOf(iptc.Keywords, dc.subject),
  };
  // GPS needs both halves.
  if (fields.gpsLatitude === null || fields.gpsLongitude === null) {
    fields.gpsLatitude = null;
    fields.gpsLongitude = null;
  }

  return { fields, error: errors.length ? cleanText(errors.join('; ')) : null };
}
