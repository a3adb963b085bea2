/**
 * What the photo screen shows for a caption or note: each date read in it, as the archivist
 * wrote it (EDTF with its uncertainty marks, precision per end, DACS wording), the convention
 * that decided the reading, and the constraint it becomes when the archivist uses it. A numeric
 * date that reads both ways carries the other reading, to offer. Computed in main
 * (src/main/dating/caption-dates.ts) with the library's numeric date order.
 */
import { z } from 'zod';
import { manualConstraintSchema } from './evidence-details';

export const NUMERIC_DATE_ORDERS = ['month-first', 'day-first', 'undecided'] as const;
export const numericDateOrderSchema = z.enum(NUMERIC_DATE_ORDERS);

const otherReadingSchema = z.object({
  /** e.g. "day first: 7 April 1906". */
  reading: z.string(),
  edtf: z.string(),
  dacs: z.string(),
  constraint: manualConstraintSchema,
});

export const captionDateSchema = z.object({
  /** The date as written, and where. */
  text: z.string(),
  index: z.number().int().min(0),
  earliest: z.number().int(),
  latest: z.number().int(),
  /** '1906-07-04?', '1906-21', '1906-07/1919', '../1906'. */
  edtf: z.string(),
  /** The list or alternatives it is one of: '[1906-07-04,1906-07-05]'. */
  set: z.string().nullable(),
  /** 'day', or per end when they differ: 'month/year' ('open' for an open end). */
  precision: z.string(),
  dacs: z.string(),
  approximate: z.boolean(),
  uncertain: z.boolean(),
  /** The documented convention used (season months, numeric order…), if one decided it. */
  convention: z.string().nullable(),
  /** How it was read. */
  reason: z.string(),
  /** Set when the text says it dates the object's use (a postmark…): the picture is no later. */
  use: z.string().nullable(),
  /** What "Use as a constraint" adds. */
  constraint: manualConstraintSchema,
  otherReading: otherReadingSchema.nullable(),
});
export type CaptionDate = z.infer<typeof captionDateSchema>;

export const captionDatesInput = z.object({ text: z.string().max(20_000) }).strict();
export const captionDatesOutput = z.object({
  numericDateOrder: numericDateOrderSchema,
  dates: z.array(captionDateSchema).max(100),
});
