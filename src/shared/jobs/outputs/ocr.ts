/** What the `ocr` job's worker returns: the recognised text, line by line with boxes, and the dates found in it. */
import { z } from 'zod';

export const foundDateSchema = z.object({
  text: z.string().max(500),
  index: z.number().int().min(0),
  earliest: z.number().int(),
  latest: z.number().int(),
  precision: z.enum(['day', 'month', 'season', 'year', 'decade', 'century']),
  approximate: z.boolean(),
  confidence: z.number().min(0).max(1),
  reason: z.string().max(1000),
  /** Set when the text says the date is of the object's use (a postmark…), not of the picture. */
  use: z
    .object({
      cue: z.enum(['postmark', 'processing', 'printing', 'receipt', 'copyright', 'accession', 'gift', 'digitisation']),
      word: z.string().max(100),
    })
    .nullish(),
});

/** One line as read, with Tesseract's confidence and its box in the oriented image's pixels. */
export const ocrReadLineSchema = z.object({
  text: z.string().max(2000),
  confidence: z.number().min(0).max(100),
  bbox: z.object({ x0: z.number(), y0: z.number(), x1: z.number(), y1: z.number() }),
});
export type OcrReadLine = z.infer<typeof ocrReadLineSchema>;

export const ocrJobOutputSchema = z.object({
  text: z.string().max(50_000),
  /** Tesseract's mean confidence, 0..100. */
  confidence: z.number().min(0).max(100),
  lines: z.array(ocrReadLineSchema).max(500),
  /** The oriented image's size: the space of the line boxes. */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** How the kept reading was made ("as scanned", "scaled 2×, sparse text", …). */
  method: z.string().max(200),
  /** Readings Tesseract made of the image (the best one kept), and the worker's time for them. */
  attempts: z.number().int().positive().optional(),
  readMs: z.number().min(0).optional(),
  dates: z.array(foundDateSchema).max(50),
  /**
   * The picture areas of a print (textured, beside flat caption band, mount or margin), in the
   * space of the line boxes: a date read inside one is only a clue. Absent or empty: none found.
   */
  pictureAreas: z
    .array(z.object({ x0: z.number(), y0: z.number(), x1: z.number(), y1: z.number() }))
    .max(8)
    .optional(),
});
export type OcrJobOutput = z.infer<typeof ocrJobOutputSchema>;
