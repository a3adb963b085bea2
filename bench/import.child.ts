/** The bare loop's worker: per file, hash + exifr + sharp thumbnail, nothing else (see import.ts). */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';

sharp.concurrency(1);
sharp.cache(false);

process.on('message', async (m: { files: string[]; out: string }) => {
  for (const file of m.files) {
    const bytes = await fs.promises.readFile(file);
    const sha = crypto.createHash('sha256').update(bytes).digest('hex');
    await exifr.parse(bytes, { reviveValues: false });
    await sharp(bytes)
      .rotate()
      .resize(512, 512, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 80 })
      .toFile(path.join(m.out, `${sha}.jpg`));
  }
  process.send!({ done: true });
});
process.send!({ ready: true });
