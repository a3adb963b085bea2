/**
 * `preview`: the zoomable, full-resolution view of a photo, made by a worker: a Deep Zoom pyramid
 * of JPEG tiles (each level half the size of the next; the top level is the photo at full
 * resolution, as displayed, EXIF orientation applied) written to the library folder, so that a
 * 20,000 × 20,000 px scan is never decoded or sent whole: main serves the few tiles in view.
 * Made on demand, when a photo is opened whose original the window cannot show at full size.
 */
import { z } from 'zod';
import { defineJobType } from '../define';
import { photoIdPayload, photoSubject, MINUTE } from './common';
import { MAX_FILE_BYTES, MAX_INPUT_PIXELS } from './metadata';

/** Tile edge in px (plus a 1 px overlap on inner edges so tiles drawn side by side show no seams). */
export const PYRAMID_TILE_SIZE = 512;
export const PYRAMID_OVERLAP = 1;
/** JPEG quality of every tile, whether the pyramid made it or main cut it on demand (the same bytes at full resolution). */
export const PYRAMID_QUALITY = 85;

/** What a finished pyramid is; written beside its tiles as `pyramid.json`, and returned by the job. */
export const pyramidSchema = z.object({
  /** Full-resolution size as displayed (EXIF orientation applied). */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  tileSize: z.number().int().positive(),
  overlap: z.number().int().min(0),
  /** Levels 0 … levels−1; level 0 fits in one tile, level levels−1 is full resolution. */
  levels: z.number().int().positive().max(32),
  format: z.literal('jpeg'),
  /** Tiles written and their total size, for the job's summary. */
  tiles: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
});
export type Pyramid = z.infer<typeof pyramidSchema>;

export const previewInputSchema = z.object({
  /** The photo; read only, never modified. */
  path: z.string(),
  /** Size and hash recorded at import: the pyramid is made only of that file. */
  expected: z.object({ size: z.number().int(), sha256: z.string() }),
  /** Where the finished pyramid is published (made in a sibling folder, then renamed into place). */
  outputDir: z.string(),
  tileSize: z.number().int().min(64).max(4096),
  maxFileBytes: z.number().int().positive(),
  maxInputPixels: z.number().int().positive(),
});
export type PreviewInput = z.infer<typeof previewInputSchema>;

export const previewJobType = defineJobType({
  type: 'preview',
  description: 'Make the zoomable full-resolution view of a photo (tiles in the library folder).',
  payload: photoIdPayload,
  input: previewInputSchema,
  output: pyramidSchema,
  subject: photoSubject,
  // One at a time: a 400 MP scan takes tens of seconds and a few hundred MB, and it is made while
  // the archivist waits for it, so it should not share the machine with another one.
  policy: { maxRetries: 2, timeoutMs: 15 * MINUTE, handOff: 1, prefetch: 0, concurrency: 1 },
  limits: { maxFileBytes: MAX_FILE_BYTES, maxInputPixels: MAX_INPUT_PIXELS },
  ui: { label: 'Zoom view', inSentence: 'the zoom view' },
});
export type PreviewJobType = typeof previewJobType;
