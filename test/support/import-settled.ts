/** Imports a folder into a test core and waits until the import and every job it queued are done. */
import sharp from 'sharp';
import type { Core } from '../../src/main/core/core';
import { waitFor } from './core';

export async function importSettled(core: Core, dir: string): Promise<void> {
  const started = core.importer.start([dir]);
  await waitFor(
    () => {
      const s = core.importer.status();
      return s?.id === started.id && s.status !== 'running' && core.jobs.counts().queued + core.jobs.counts().running === 0;
    },
    60_000,
    'import and its jobs',
  );
}

/** A small real JPEG of one colour. */
export async function writeTestJpeg(file: string, background = '#806040'): Promise<void> {
  await sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .jpeg()
    .toFile(file);
}
