/**
 * The five files of the dating-decisions walk (e2e/dating-decisions.spec.ts and its main-side
 * twin, test/dating/bulk-review-sequence.test.ts): two scans, a camera original, a file with only
 * a saved date, and a postcard with a postmark.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { renderCaption } from './caption-images';

/** A small JPEG of one hue with these EXIF fields. */
async function jpeg(file: string, exif: { IFD0?: Record<string, string>; IFD2?: Record<string, string> }, hue: number) {
  await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: hue, g: 110, b: 90 } } })
    .jpeg()
    .withExif(exif)
    .toFile(file);
}

export async function writeDatingDecisionsFiles(dir: string): Promise<void> {
  await jpeg(path.join(dir, 'scan-2000-09-30.jpg'), { IFD2: { DateTimeOriginal: '2000:09:30 10:00:00' } }, 60);
  await jpeg(path.join(dir, 'scan-1999-03-01.jpg'), { IFD2: { DateTimeOriginal: '1999:03:01 10:00:00' } }, 90);
  await jpeg(
    path.join(dir, 'sony-camera.jpg'),
    { IFD0: { Make: 'SONY', Model: 'CYBERSHOT' }, IFD2: { DateTimeOriginal: '2000:09:30 14:02:11' } },
    150,
  );
  await jpeg(path.join(dir, 'saved-2009.jpg'), { IFD0: { DateTime: '2009:10:09 08:00:00' } }, 200);
  fs.writeFileSync(path.join(dir, 'postcard.png'), await renderCaption('Postmarked PARIS 12-6-23', { size: 48 }));
}
