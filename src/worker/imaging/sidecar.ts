/**
 * An XMP sidecar next to a photo — digiKam's `photo.jpg.xmp` or Lightroom's `photo.xmp` — holds
 * earlier cataloguing: this reads the dates in it (photoshop:DateCreated, dc:date), raw, so the
 * metadata job can turn them into evidence. Read with exifr, the same parser as embedded XMP (in
 * process, no ExifTool needed: see README "Reading sidecars"). A sidecar Circa itself wrote is
 * recognised by its namespace, so an export never comes back as evidence for itself.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SidecarMetadata } from '../../shared/jobs/outputs/photo-metadata';
import { CIRCA_XMP_NAMESPACE } from '../../shared/export/xmp-tags';
import { cleanText, firstText, parseXmp } from './exif';

const MAX_SIDECAR_BYTES = 2 * 1024 * 1024;

/** The sidecars a photo may have, in the order they are preferred. */
export function sidecarCandidates(imagePath: string): string[] {
  const dir = path.dirname(imagePath);
  const stem = path.basename(imagePath, path.extname(imagePath));
  return [`${imagePath}.xmp`, `${imagePath}.XMP`, path.join(dir, `${stem}.xmp`), path.join(dir, `${stem}.XMP`)];
}

export async function readSidecar(imagePath: string): Promise<SidecarMetadata | null> {
  for (const file of sidecarCandidates(imagePath)) {
    let bytes: Buffer;
    try {
      const st = await fs.stat(file);
      if (!st.isFile()) continue;
      if (st.size > MAX_SIDECAR_BYTES) return empty(file, `the sidecar is larger than ${MAX_SIDECAR_BYTES} bytes; not read`);
      bytes = await fs.readFile(file);
    } catch {
      continue;
    }
    try {
      const xmp = await parseXmp(bytes);
      return {
        file,
        dateCreated: firstText(xmp.photoshop?.DateCreated),
        dcDate: firstText(xmp.dc?.date),
        writtenByCirca: bytes.includes(CIRCA_XMP_NAMESPACE),
        error: null,
      };
    } catch (err) {
      return empty(file, cleanText(`the sidecar could not be read: ${(err as Error).message}`));
    }
  }
  return null;
}

function empty(file: string, error: string | null): SidecarMetadata {
  return { file, dateCreated: null, dcDate: null, writtenByCirca: false, error };
}
