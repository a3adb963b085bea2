/** The worker's half of the `metadata` job: see src/worker/imaging/metadata.ts. */
import sharp from 'sharp';
import { extractPhotoMetadata } from '../imaging/metadata';
import type { MetadataJobType } from '../../shared/jobs/types/metadata';
import type { RunHandler } from './types';

// Each worker process is one of several on the machine: one libvips thread each avoids
// oversubscribing the cores, and no cache keeps memory flat across thousands of photos.
sharp.concurrency(1);
sharp.cache(false);

export const metadataHandler: RunHandler<MetadataJobType> = (input, ctx) => extractPhotoMetadata(input, { signal: ctx.signal });
