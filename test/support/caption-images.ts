/**
 * Renders printed captions (the kind written on or under old photographs) as PNG images via
 * sharp's SVG renderer, using the DejaVu fonts installed under /usr/share/fonts.
 */
import sharp from 'sharp';

export type CaptionFont = 'DejaVu Sans' | 'DejaVu Serif' | 'DejaVu Sans Mono';

export interface CaptionOptions {
  font?: CaptionFont;
  /** Font size in px (default 40). */
  size?: number;
  /** Rotation of the text around the image centre, in degrees (positive = clockwise). */
  rotateDeg?: number;
  /** Image size; by default sized to fit the text with a margin. */
  width?: number;
  height?: number;
  background?: 'white' | 'sepia';
}

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

export async function renderCaption(text: string, opts: CaptionOptions = {}): Promise<Buffer> {
  const font = opts.font ?? 'DejaVu Sans';
  const size = opts.size ?? 40;
  const advance = font === 'DejaVu Sans Mono' ? 0.62 : 0.66;
  const width = opts.width ?? Math.ceil(text.length * size * advance + size * 2);
  const height = opts.height ?? Math.ceil(size * 3);
  const bg = opts.background === 'sepia' ? '#e6d3ac' : '#ffffff';
  const ink = opts.background === 'sepia' ? '#3d2b1a' : '#111111';
  const rot = opts.rotateDeg ?? 0;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="100%" height="100%" fill="${bg}"/>
  <text x="${width / 2}" y="${height / 2}" font-family="${escapeXml(font)}" font-size="${size}" fill="${ink}"
    text-anchor="middle" dominant-baseline="central" transform="rotate(${rot} ${width / 2} ${height / 2})">${escapeXml(text)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: bg }).png().toBuffer();
}
