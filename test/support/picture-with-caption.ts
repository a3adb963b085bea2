/**
 * A print as a scanner sees it: a textured, photo-like picture area (seeded noise, blurred, over
 * a gradient) and a light band below it, as on a mount or a print's white border. Text can be
 * written in the band (a caption) or inside the picture (a sign, a date stamp, texture that
 * reads as figures), in any ink, so tests can tell the two places apart.
 */
import sharp from 'sharp';
import { rng } from './caption-set';

export interface PictureCaptionOptions {
  /** The text and where it is written. */
  text: string;
  where: 'caption-band' | 'picture';
  /** Ink colour (default near-black); a light grey such as #c4c4c4 is a faint pencil caption. */
  ink?: string;
  /** Band and margin colour (default #f4f1ea, an off-white mount). */
  paper?: string;
  /** Font size in px (default 36). */
  size?: number;
  width?: number;
  seed?: number;
}

/** A grey picture: coarse noise enlarged (soft detail) under a diagonal shade. */
async function picture(width: number, height: number, seed: number): Promise<Buffer> {
  const cw = Math.ceil(width / 16);
  const ch = Math.ceil(height / 16);
  const r = rng(seed);
  const cells = Buffer.alloc(cw * ch);
  for (let i = 0; i < cells.length; i++) cells[i] = 40 + Math.floor(r() * 170);
  const noise = await sharp(cells, { raw: { width: cw, height: ch, channels: 1 } })
    .resize(width, height, { kernel: 'cubic' })
    .toColourspace('srgb')
    .png()
    .toBuffer();
  const shade = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#000" stop-opacity="0.3"/><stop offset="1" stop-color="#fff" stop-opacity="0.15"/>
      </linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  return sharp(noise)
    .composite([{ input: shade }])
    .png()
    .toBuffer();
}

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

/** Renders the print as PNG. */
export async function renderPictureWithCaption(o: PictureCaptionOptions): Promise<Buffer> {
  const size = o.size ?? 36;
  const width = o.width ?? 900;
  const margin = Math.round(width * 0.05);
  const pw = width - 2 * margin;
  const ph = Math.round(pw * 0.7);
  const band = Math.round(size * 3);
  const height = margin + ph + band;
  const paper = o.paper ?? '#f4f1ea';
  const ink = o.ink ?? '#1a1a1a';
  // In the picture the text sits on a lighter patch of it (a sign, a shop front), as text in a photo does.
  const inPicture = o.where === 'picture';
  const ty = inPicture ? margin + ph * 0.5 : margin + ph + band / 2;
  const plate = inPicture
    ? `<rect x="${width / 2 - size * 7}" y="${ty - size}" width="${size * 14}" height="${size * 2}" fill="#cfcbc2"/>`
    : '';
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${plate}
      <text x="${width / 2}" y="${ty}" font-family="DejaVu Sans" font-size="${size}" fill="${ink}"
        text-anchor="middle" dominant-baseline="central">${escapeXml(o.text)}</text></svg>`,
  );
  return sharp({ create: { width, height, channels: 3, background: paper } })
    .composite([
      { input: await picture(pw, ph, o.seed ?? 7), left: margin, top: margin },
      { input: svg, left: 0, top: 0 },
    ])
    .png()
    .toBuffer();
}
