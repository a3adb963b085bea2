/**
 * A caption test set that looks like an archive: the writing on and under old photographs as a
 * scanner sees it. Every case is generated here (nothing is downloaded) from the fonts on this
 * machine — DejaVu and Liberation (serif, sans, mono, condensed), rendered by sharp through Pango —
 * and from two handwriting-like fonts that npm packages ship as TTF (Kalam, Patrick Hand).
 *
 * Kinds: labels on a mount under a photograph, white ink on black album pages, typed versos of
 * several lines, small and large text, rotated labels, grey-on-grey, coloured ink, JPEG-compressed
 * scans and handwriting; each at one of several scan resolutions. Each kind holds dated and
 * undated captions, so the set measures both dates found and false dates.
 *
 * The truth of a case is its text; the dates it carries are what `extractDates` finds in that
 * text (the set's own test checks that every dated caption yields one and every undated none).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';

const requireHere = createRequire(import.meta.url);

export const CAPTION_KINDS = [
  'mount-label',
  'album-page',
  'typed-verso',
  'small-text',
  'large-text',
  'rotated',
  'low-contrast',
  'coloured-ink',
  'jpeg',
  'handwriting',
] as const;
export type CaptionKind = (typeof CAPTION_KINDS)[number];

export interface CaptionCase {
  id: string;
  kind: CaptionKind;
  /** False for handwriting: the ≥ 95 % target is for printed captions. */
  printed: boolean;
  /** The true text, lines joined by "\n". */
  text: string;
  /** Whether the true text carries a date. */
  dated: boolean;
  font: string;
  /** Scan resolution the case pretends to come from (sets the text's size in pixels). */
  dpi: number;
  ext: 'png' | 'jpg';
  render(): Promise<Buffer>;
}

/** One caption per line of a card; curly apostrophes as printers set them. */
const DATED = [
  'Grandma and Joe, Xmas 1942',
  'Summer ’62 at the lake',
  'Coney Island, July 4th 1951',
  'Wedding of Ruth & Harold, June 12, 1938',
  'c. 1935 Ford dealership, Main St.',
  'Easter Sunday 1938',
  'Mother on the porch, 1947',
  'Uncle Frank in the Navy, ’44',
  '12.6.47 Hamburg',
  'Aug. 1929 - the new barn',
  'Christmas morning 1956',
  'Lake George, Sept 1949',
  'Spring 1950, first communion',
  'Dad’s new Buick, June ’57',
  'Picnic at the quarry, 3 May 1931',
  'Our house on Elm St, 1968',
  'Family reunion 1973',
  'Aunt Ida, Oct 1962',
  'Winter 1944-45, the farm',
  'Harvest time, 1911',
];

const UNDATED = [
  'Grandma and Joe on the porch',
  'The old mill by the river',
  'Uncle Joe with his new car',
  'Sisters at the seaside',
  'Box 12, folder 3',
  'Smith Studio, Chicago',
  'Our first house',
  'Lot No. 1947, photographer unknown',
];

/** Lines of a typed verso around the dated (or undated) line. */
const VERSO_LINES = [
  ['Smith Studio, Chicago', 'Order 4471'],
  ['Mrs. H. Bauer and children', 'Negative kept'],
  ['Return to: A. Lindqvist', 'Duplicate on request'],
  ['Copy for Aunt Ida', 'Please keep flat'],
];

const PRINTED_FONTS = [
  'DejaVu Serif',
  'DejaVu Sans',
  'Liberation Serif',
  'DejaVu Sans Mono',
  'Liberation Sans',
  'DejaVu Serif Condensed',
  'Liberation Sans Narrow',
  'DejaVu Sans Condensed',
  'Liberation Mono',
];
const TYPEWRITER_FONTS = ['DejaVu Sans Mono', 'Liberation Mono'];
const HAND_FONTS: { family: string; file: string }[] = [
  { family: 'Kalam', file: '@expo-google-fonts/kalam/400Regular/Kalam_400Regular.ttf' },
  { family: 'Patrick Hand', file: '@expo-google-fonts/patrick-hand/400Regular/PatrickHand_400Regular.ttf' },
];

const DPIS = [150, 200, 300, 400, 600];

/** Deterministic pseudo-random numbers (mulberry32), so the set is the same on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Seeded Gaussian noise (Box–Muller), one byte per pixel: sharp's own noise is not repeatable. */
function gaussianNoise(width: number, height: number, mean: number, sigma: number, seed: number): Buffer {
  const r = rng(seed);
  const out = Buffer.alloc(width * height);
  for (let i = 0; i < out.length; i++) {
    const g = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    out[i] = Math.max(0, Math.min(255, Math.round(mean + sigma * g)));
  }
  return out;
}

function escapeMarkup(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

interface Ink {
  text: string;
  font: string;
  /** Em size in pixels. */
  px: number;
  colour: string;
  fontfile?: string;
  align?: 'left' | 'centre';
}

/** The text alone, on a transparent background, at its natural size. */
async function renderInk(ink: Ink): Promise<{ png: Buffer; width: number; height: number }> {
  const markup = `<span foreground="${ink.colour}">${escapeMarkup(ink.text)}</span>`;
  const png = await sharp({
    text: {
      text: markup,
      font: `${ink.font} ${Math.round(ink.px)}px`,
      fontfile: ink.fontfile,
      rgba: true,
      dpi: 72,
      align: ink.align === 'left' ? 'left' : 'centre',
      spacing: Math.round(ink.px * 0.35),
    },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();
  const meta = await sharp(png).metadata();
  return { png, width: meta.width!, height: meta.height! };
}

/** A grey, photo-like rectangle: blurred noise over a gradient, as a print looks in a scan. */
async function photograph(width: number, height: number, seed: number, tone: number): Promise<Buffer> {
  // Noise drawn small and enlarged: soft, photo-like detail without the cost of a large blur.
  const noise = await sharp(
    gaussianNoise(Math.max(2, Math.ceil(width / 24)), Math.max(2, Math.ceil(height / 24)), tone, 45, seed),
    {
      raw: { width: Math.max(2, Math.ceil(width / 24)), height: Math.max(2, Math.ceil(height / 24)), channels: 1 },
    },
  )
    .resize(width, height, { kernel: 'cubic' })
    .toColourspace('srgb')
    .png({ compressionLevel: 1 })
    .toBuffer();
  const shade = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="${seed % 2}" y2="1">
        <stop offset="0" stop-color="#000" stop-opacity="0.35"/><stop offset="1" stop-color="#fff" stop-opacity="0.2"/>
      </linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#g)"/>
      <ellipse cx="${width * 0.5}" cy="${height * 0.55}" rx="${width * 0.16}" ry="${height * 0.3}" fill="#222" fill-opacity="0.45"/>
    </svg>`,
  );
  return sharp(noise)
    .composite([{ input: shade }])
    .png({ compressionLevel: 1 })
    .toBuffer();
}

interface Card {
  ink: Ink;
  background: string;
  /** Photograph above the caption, as on a mount or album page (width fraction of the card). */
  photo?: { tone: number; flat?: boolean };
  rotateDeg?: number;
  jpegQuality?: number;
  /** Paper grain and scanner noise (standard deviation, grey levels). */
  grain?: number;
  /** Scanner softness (Gaussian sigma in pixels). */
  blur?: number;
  /** Margin around the text in ems. */
  margin?: number;
  seed: number;
}

async function renderCard(card: Card): Promise<Buffer> {
  const ink = await renderInk(card.ink);
  const margin = Math.round(card.ink.px * (card.margin ?? 1.5));
  let width = ink.width + 2 * margin;
  const layers: OverlayOptions[] = [];
  let top = margin;
  if (card.photo) {
    // A print is much larger than its caption: at least 20 ems wide.
    width = Math.max(Math.round(ink.width * 1.4), Math.round(card.ink.px * 20));
    const pw = Math.round(width * 0.85);
    const ph = Math.round(pw * 0.72);
    const print = card.photo.flat
      ? await sharp({
          create: {
            width: pw,
            height: ph,
            channels: 3,
            background: { r: card.photo.tone, g: card.photo.tone, b: card.photo.tone },
          },
        })
          .png({ compressionLevel: 1 })
          .toBuffer()
      : await photograph(pw, ph, card.seed, card.photo.tone);
    layers.push({ input: print, left: Math.round((width - pw) / 2), top });
    top += ph + Math.round(card.ink.px * 0.8);
  }
  const left = card.ink.align === 'left' ? margin : Math.round((width - ink.width) / 2);
  layers.push({ input: ink.png, left, top });
  const height = top + ink.height + margin;
  let img = sharp({ create: { width, height, channels: 3, background: card.background } }).composite(layers);
  if (card.grain) {
    // Generated at half size (grain is coarser than a pixel anyway), which also halves the cost.
    const gw = Math.ceil(width / 2);
    const gh = Math.ceil(height / 2);
    const grain = await sharp(gaussianNoise(gw, gh, 128, card.grain, card.seed + 7), {
      raw: { width: gw, height: gh, channels: 1 },
    })
      .resize(width, height, { kernel: 'linear' })
      .toColourspace('srgb')
      .png({ compressionLevel: 0 })
      .toBuffer();
    img = sharp(await img.png({ compressionLevel: 1 }).toBuffer()).composite([{ input: grain, blend: 'soft-light' }]);
  }
  if (card.blur) img = sharp(await img.png({ compressionLevel: 1 }).toBuffer()).blur(card.blur);
  if (card.rotateDeg) {
    img = sharp(await img.png({ compressionLevel: 1 }).toBuffer()).rotate(card.rotateDeg, { background: card.background });
  }
  return card.jpegQuality
    ? img.jpeg({ quality: card.jpegQuality, chromaSubsampling: '4:2:0' }).toBuffer()
    : img.png({ compressionLevel: 1 }).toBuffer();
}

const ptToPx = (pt: number, dpi: number) => (pt * dpi) / 72;
const pick = <T>(xs: readonly T[], r: () => number): T => xs[Math.floor(r() * xs.length)];

/** Whether case i of a kind is undated: 2 in every 10, so each kind has both. */
const undatedSlot = (i: number) => i % 5 === 4;

/**
 * The cases of one kind. `perKind` cases each (default 10); texts, fonts and resolutions cycle
 * so that each kind sees many of each.
 */
function casesOfKind(kind: CaptionKind, kindIndex: number, perKind: number): CaptionCase[] {
  const out: CaptionCase[] = [];
  for (let i = 0; i < perKind; i++) {
    const seed = kindIndex * 1000 + i;
    const r = rng(seed + 1);
    const dated = !undatedSlot(i);
    const k = kindIndex * 7 + i;
    const caption = dated ? DATED[k % DATED.length] : UNDATED[k % UNDATED.length];
    const dpi = DPIS[(k + i) % DPIS.length];
    const font = PRINTED_FONTS[k % PRINTED_FONTS.length];
    // Caption print: 9–14 pt at the scan's resolution.
    const px = ptToPx(9 + r() * 5, dpi);
    let card: Card;
    let text = caption;
    let fontName = font;
    // Every scan has some paper grain and some softness.
    const seedFields = { seed, grain: 8 + r() * 22, blur: 0.3 + r() * px * 0.02 };
    switch (kind) {
      case 'mount-label':
        card = {
          ink: { text, font, px, colour: pick(['#1b1b1b', '#2b2118', '#333333'], r) },
          background: pick(['#e8e0cc', '#d9d2bf', '#cfc6b0', '#ece7da'], r),
          photo: { tone: 90 + Math.round(r() * 60), flat: i % 3 === 1 },
          ...seedFields,
        };
        break;
      case 'album-page':
        card = {
          ink: { text, font, px, colour: pick(['#f4f1e8', '#e8e2cf', '#ffffff', '#d8d2c0'], r) },
          background: pick(['#121212', '#1c1a18', '#0b0b0b', '#22201c'], r),
          photo: i % 2 === 0 ? { tone: 110 + Math.round(r() * 50) } : undefined,
          ...seedFields,
        };
        break;
      case 'typed-verso': {
        const [a, b] = VERSO_LINES[i % VERSO_LINES.length];
        text = i % 2 ? [a, caption, b].join('\n') : [a, b, caption].join('\n');
        fontName = TYPEWRITER_FONTS[i % TYPEWRITER_FONTS.length];
        card = {
          ink: {
            text,
            font: fontName,
            px: ptToPx(11 + r() * 2, dpi),
            colour: pick(['#202020', '#2a2a3a', '#3a2e2a'], r),
            align: 'left',
          },
          background: pick(['#f3efe4', '#ebe6d6', '#f7f5ef'], r),
          ...seedFields,
        };
        break;
      }
      case 'small-text':
        card = {
          ink: { text, font, px: 11 + r() * 5, colour: pick(['#222222', '#3a3a3a'], r) },
          background: pick(['#ffffff', '#efe8d8'], r),
          ...seedFields,
        };
        break;
      case 'large-text':
        card = {
          ink: { text, font, px: 110 + r() * 80, colour: '#1e1e1e' },
          background: pick(['#ffffff', '#efe8d8'], r),
          margin: 0.6,
          ...seedFields,
        };
        break;
      case 'rotated':
        card = {
          ink: { text, font, px, colour: '#202020' },
          background: pick(['#f1ead8', '#e6dcc4', '#ffffff'], r),
          rotateDeg: (r() < 0.5 ? -1 : 1) * (2 + r() * 3),
          photo: i % 3 === 0 ? { tone: 120 } : undefined,
          ...seedFields,
        };
        break;
      case 'low-contrast': {
        const bg = 110 + Math.round(r() * 70);
        const fg = bg - 22 - Math.round(r() * 16);
        const grey = (v: number) => `#${v.toString(16).padStart(2, '0').repeat(3)}`;
        card = {
          ink: { text, font, px, colour: grey(fg) },
          background: grey(bg),
          photo: i % 2 === 0 ? { tone: bg - 20, flat: i % 4 === 0 } : undefined,
          ...seedFields,
        };
        break;
      }
      case 'coloured-ink':
        card = {
          ink: { text, font, px, colour: pick(['#1f3a93', '#a01818', '#6b3e1e', '#1e6b3a', '#5b2a86'], r) },
          background: pick(['#f2ecd9', '#e9f0f5', '#f6e7e7', '#ffffff'], r),
          ...seedFields,
        };
        break;
      case 'jpeg':
        card = {
          ink: { text, font, px, colour: '#262626' },
          background: pick(['#ede4cf', '#ffffff', '#dcd5c3'], r),
          photo: i % 2 === 0 ? { tone: 110 } : undefined,
          jpegQuality: 20 + Math.round(r() * 30),
          ...seedFields,
        };
        break;
      case 'handwriting': {
        const hand = HAND_FONTS[i % HAND_FONTS.length];
        fontName = hand.family;
        card = {
          ink: {
            text,
            font: hand.family,
            fontfile: requireHere.resolve(hand.file),
            px: ptToPx(14 + r() * 4, dpi),
            colour: pick(['#1a2a6a', '#2a2a2a', '#4a3a2a'], r),
          },
          background: pick(['#efe8d8', '#f6f3ea', '#e6dcc4'], r),
          ...seedFields,
        };
        break;
      }
    }
    const finalCard = card;
    out.push({
      id: `${kind}-${String(i).padStart(2, '0')}`,
      kind,
      printed: kind !== 'handwriting',
      text,
      dated,
      font: fontName,
      dpi,
      ext: finalCard.jpegQuality ? 'jpg' : 'png',
      render: () => renderCard(finalCard),
    });
  }
  return out;
}

/** The whole set: `perKind` cases of every kind (10 each by default: 100 images). */
export function captionSet(perKind = 10): CaptionCase[] {
  return CAPTION_KINDS.flatMap((kind, i) => casesOfKind(kind, i, perKind));
}

/** Writes every case's image into `dir`; returns the file of each case. */
export async function writeCaptionSet(dir: string, cases: CaptionCase[]): Promise<Map<CaptionCase, string>> {
  const { writeFile } = await import('node:fs/promises');
  const files = new Map<CaptionCase, string>();
  for (const c of cases) {
    const file = path.join(dir, `${c.id}.${c.ext}`);
    await writeFile(file, await c.render());
    files.set(c, file);
  }
  return files;
}
