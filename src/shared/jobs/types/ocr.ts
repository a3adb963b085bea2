/** `ocr`: read printed or written text (captions, postmarks) and find the dates in it. */
import { z } from 'zod';
import { defineJobType } from '../define';
import { numericDateOrderSchema } from '../../caption-dates';
import { ocrLanguagesSchema } from '../../ocr-languages';
import { ocrJobOutputSchema } from '../outputs/ocr';
import { photoIdPayload, photoSubject, MINUTE } from './common';

export const ocrJobType = defineJobType({
  type: 'ocr',
  description: 'Read printed or written text (captions, postmarks) and find dates in it.',
  payload: photoIdPayload,
  // The library's numeric date order (Settings), for dates such as 7/4/1906 in the text, and the
  // languages its OCR reads (English alone when absent).
  input: z.object({
    path: z.string(),
    numericDateOrder: numericDateOrderSchema.optional(),
    languages: ocrLanguagesSchema.optional(),
  }),
  output: ocrJobOutputSchema,
  subject: photoSubject,
  // Seconds per photo: handed over one at a time, two queued behind the one running (taken back
  // by an idle worker at the tail of a batch).
  policy: { maxRetries: 2, timeoutMs: 5 * MINUTE, handOff: 1, prefetch: 2 },
  limits: {},
  ui: { label: 'OCR', rerunForPhotos: true },
});
export type OcrJobType = typeof ocrJobType;
