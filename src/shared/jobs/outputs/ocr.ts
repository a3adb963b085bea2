/** What the `ocr` job's worker returns: the recognised text and the dates found in it. */
import { z } from 'zod';

export const foundDateSchema = z.object({
  text: z.string().max(500),
  index: z.number().int().min(0),
  earliest: z.number().int(),
  latest: z.number().int(),
  precision: z.enum(['day', 'month', 'season', 'year', 'decade', 'century']),
  approximate: z.boolean(),
  confidence: z.number().min(0).max(1),
  reason: z.string().max(500),
  /** Set when the text says the date is of the object's use (a postmark…), not of the picture. */
  use: z
    .object({
      cue: z.enum(['postmark', 'processing', 'printing', 'receipt', 'copyright', 'accession', 'gift', 'digitisation']),
      word: z.string().max(100),
    })
    .nullish(),
});

export const ocrJobOutputSchema = z.object({
  text: z.string().max(50_000),
  /** Tesseract's mean confidence, 0..100. */
  confidence: z.number().min(0).max(100),
  lines: z.array(z.object({ text: z.string().max(2000), confidence: z.number().min(0).max(100) })).max(500),
  dates: z.array(foundDateSchema).max(50),
});
export type OcrJobOutput = z.infer<typeof ocrJobOutputSchema>;
