import { z } from 'zod';
import type { OcrLanguage } from '../../shared/ocr-languages';

export const ocrBboxSchema = z.object({
  x0: z.number(),
  y0: z.number(),
  x1: z.number(),
  y1: z.number(),
});

export const ocrLineSchema = z.object({
  text: z.string().min(1),
  /** Tesseract's mean word confidence for the line, 0..100. */
  confidence: z.number().min(0).max(100),
  /** In pixels of the EXIF-oriented original image (same space as `width`/`height`). */
  bbox: ocrBboxSchema,
});

export const ocrResultSchema = z.object({
  /** Recognised text, lines joined by "\n", blank lines removed. */
  text: z.string(),
  /** Mean confidence 0..100 (0 when nothing was recognised). */
  confidence: z.number().min(0).max(100),
  lines: z.array(ocrLineSchema),
  /** Dimensions of the EXIF-oriented original image; line boxes are in this space. */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** How the kept reading was made ("as scanned", "scaled 2×, sparse text", …). */
  method: z.string().optional(),
  /** Readings tried for this image (the best one is kept). */
  attempts: z.number().int().positive().optional(),
  /** The picture areas found beside a caption band, mount or margin (layout.ts), in the same space as the lines. */
  pictureAreas: z.array(ocrBboxSchema).optional(),
});

export type OcrBbox = z.infer<typeof ocrBboxSchema>;
export type OcrLine = z.infer<typeof ocrLineSchema>;
export type OcrResult = z.infer<typeof ocrResultSchema>;

export interface OcrRecognizeOptions {
  signal?: AbortSignal;
  /** Languages to read, the first Tesseract's main one (the engine's default when absent). */
  languages?: readonly OcrLanguage[];
  /** Recognition progress, 0..1 (monotonic; ends with 1 on success). */
  onProgress?: (fraction: number) => void;
}

export interface OcrEngineStats {
  /** Tesseract workers created so far (1 after any number of successful calls). */
  workersCreated: number;
  /** Tesseract workers terminated (by abort or `terminate()`). */
  workersTerminated: number;
  /** Successful recognitions (images read). */
  recognitions: number;
  /** Tesseract readings made (an image may take several). */
  passes: number;
  /** Whether a tesseract worker is currently alive. */
  workerAlive: boolean;
}

export interface OcrEngine {
  recognize(imagePath: string, opts?: OcrRecognizeOptions): Promise<OcrResult>;
  stats(): OcrEngineStats;
  /** Terminates the tesseract worker; the engine can still be used (it recreates lazily). */
  terminate(): Promise<void>;
}
