/**
 * Evidence as the contract carries it. What each source keeps in an evidence row's `details` is
 * one zod schema per source: main writes them, the contract validates them, and the renderer
 * shows each with its own component. Also the archivist's manual constraints (a manual finding's
 * details hold the constraint).
 */
import { z } from 'zod';
import { partialDateProblem, partialEnd, partialStart, type PartialDate } from './dating';

const year = z.number().int().min(1826).max(2100);
const month = z.number().int().min(1).max(12);
const day = z.number().int().min(1).max(31);
/** A year, a month of a year, or a day: "June 1923", "3 May 1945". */
const partialDateFields = { year, month: month.optional(), day: day.optional() };
const validDate = <S extends z.ZodType<PartialDate>>(schema: S): S =>
  schema.superRefine((d, ctx) => {
    const problem = partialDateProblem(d);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: d.day != null && d.month == null ? ['day'] : [] });
  });
export const partialDateSchema = validDate(z.object(partialDateFields).strict());
/** `from` and `to` of "between": a whole year as a number (as before), or a partial date. */
const rangeEnd = z.union([year, partialDateSchema]);
const asPartial = (d: number | PartialDate): PartialDate => (typeof d === 'number' ? { year: d } : d);
export const manualConstraintSchema = z.discriminatedUnion('type', [
  validDate(z.object({ type: z.literal('not_before'), ...partialDateFields }).strict()),
  validDate(z.object({ type: z.literal('not_after'), ...partialDateFields }).strict()),
  z
    .object({ type: z.literal('between'), from: rangeEnd, to: rangeEnd })
    .strict()
    .refine((c) => partialStart(asPartial(c.from)) <= partialEnd(asPartial(c.to)), {
      message: 'The end of the range is before its start',
      path: ['to'],
    }),
  z.object({ type: z.literal('circa'), year, plusMinus: z.number().int().min(0).max(50) }).strict(),
]);
export type ManualConstraint = z.infer<typeof manualConstraintSchema>;

/** The entry a reading of history came from, and where an archivist can check it. */
export const ocrHistoryDetailsSchema = z.object({
  entryId: z.string(),
  name: z.string(),
  /** catalogue: Circa's sourced catalogue; own: an entry the archivist added. */
  origin: z.enum(['catalogue', 'own']),
  /** dates: the picture is of it (an estimate); the others only bound the picture. */
  reading: z.enum(['dates', 'between', 'not_before', 'not_after']),
  source: z.object({ work: z.string(), title: z.string(), url: z.string().optional() }),
  note: z.string().optional(),
  /** The catalogue's edition ("wars@1,…") when it came from the catalogue. */
  catalogueVersion: z.string().optional(),
});

/** The text says a date is of the object's use (a postmark, "developed"…), not of the picture. */
const dateUseSchema = z.object({
  cue: z.enum(['postmark', 'processing', 'printing', 'receipt', 'copyright', 'accession', 'gift', 'digitisation']),
  word: z.string(),
});

/** A date read in the photo (OCR). */
export const ocrDetailsSchema = z.object({
  /** The date as read. */
  text: z.string(),
  /** The whole line it was read on. */
  line: z.string(),
  /** How the extractor read it, and (for a date of use) why it is a bound. */
  reason: z.string(),
  /** Tesseract's mean confidence for the text, 0..100. */
  ocrConfidence: z.number(),
  /** The line confidence (0..100) of the line the date was read on (src/shared/dating/confidence-terms.ts). Absent in older rows. */
  lineConfidence: z.number().optional(),
  /** Why this reading is only a clue (e.g. read inside the picture of a camera original). */
  clue: z.string().optional(),
  /** The camera's own capture date this reading contradicts, and by how many years. */
  captureConflict: z.object({ day: z.number().int(), field: z.string(), years: z.number().int() }).optional(),
  /** Set when the text says it dates the object's use (a postmark…), not the picture. */
  use: dateUseSchema.nullish(),
  /** Set when the text names a historical event or period (src/shared/dating/history): the entry and its source. */
  history: ocrHistoryDetailsSchema.optional(),
});

/** A date from the file's embedded metadata. */
export const exifDetailsSchema = z.object({
  /** capture: a camera's date; scan: when the file was made; modified: when it was last saved. Absent in rows of older versions. */
  origin: z.enum(['capture', 'scan', 'modified']).optional(),
  /** The field it came from, e.g. "DateTimeOriginal". */
  field: z.string(),
  raw: z.string().nullable(),
  /** Why the file is (not) taken for a scan, or why a modification date counts at all. */
  reason: z.string().nullable().optional(),
  /** Dates in the file that were left out, each with the reason. */
  ignored: z.array(z.string()).optional(),
  /** Earlier cataloguing read from an XMP sidecar next to the file: the sidecar's path. */
  sidecar: z.string().optional(),
});

/** A visual analysis (AI): weak evidence, with the clues it saw. */
export const aiDetailsSchema = z.object({
  backend: z.string(),
  model: z.string().nullable(),
  summary: z.string(),
  clues: z.array(
    z.object({
      category: z.string(),
      observation: z.string(),
      earliestYear: z.number().int().nullable(),
      latestYear: z.number().int().nullable(),
      confidence: z.number(),
    }),
  ),
});

/**
 * A date or named event read in the archivist's own notes on the photo (src/main/dating/note-evidence.ts):
 * what was read, how, its EDTF, and the catalogue entry when it names history.
 */
export const noteDetailsSchema = z.object({
  /** The words read ("le 4 août 1906", "V-E Day"). */
  text: z.string(),
  /** How they were read (the convention included), or what the entry says. */
  reason: z.string(),
  /** The reading's EDTF with its uncertainty marks ("1906-08-04", "1906-07-04?"); null for history. */
  edtf: z.string().nullable(),
  use: dateUseSchema.nullish(),
  history: ocrHistoryDetailsSchema.optional(),
});

/** The archivist's own constraint, as entered. */
export const manualDetailsSchema = z.object({ constraint: manualConstraintSchema, note: z.string() });

/**
 * A finding proposed from a confirmed copy of the photo (src/main/duplicates/evidence-propagation.ts):
 * the copy and the accepted finding it repeats, and the group that makes them one photograph.
 */
export const duplicateDetailsSchema = z.object({
  origin: z.object({
    photoId: z.number().int(),
    evidenceId: z.number().int(),
    source: z.string(),
    filename: z.string(),
    summary: z.string(),
  }),
  groupId: z.number().int(),
});

export const evidenceDetailsSchemas = {
  exif: exifDetailsSchema,
  ocr: ocrDetailsSchema,
  ai: aiDetailsSchema,
  manual: manualDetailsSchema,
  duplicate: duplicateDetailsSchema,
  note: noteDetailsSchema,
} as const;

export type EvidenceDetails = { [S in keyof typeof evidenceDetailsSchemas]: z.infer<(typeof evidenceDetailsSchemas)[S]> };

// ---------------------------------------------------------------- evidence items
export const evidenceSources = ['exif', 'ocr', 'ai', 'manual', 'duplicate', 'note'] as const;
export const reviewStatuses = ['pending', 'accepted', 'rejected'] as const;

const id = z.number().int().positive();
const evidenceItemFields = {
  id,
  photoId: id,
  kind: z.enum(['bound', 'estimate']),
  earliest: z.number().int().nullable(),
  latest: z.number().int().nullable(),
  /** How finely it was stated: 'day', or per end 'month/year'. */
  precision: z.string().nullable(),
  confidence: z.number().nullable(),
  summary: z.string(),
  jobId: z.number().int().nullable(),
  attempt: z.number().int().nullable(),
  reviewStatus: z.enum(reviewStatuses),
  reviewNote: z.string().nullable(),
  /** Replaced by a later run of the same source (kept as history). */
  superseded: z.boolean(),
  createdAt: z.number(),
  /** The item's own interval as EDTF and in DACS wording. */
  edtf: z.string().nullable(),
  label: z.string().nullable(),
  /** Why this finding is only a clue, not a date (src/shared/dating/clue-rule.ts); null: it counts as a date. */
  clue: z.string().nullable(),
};
const { exif, ocr, ai, manual, duplicate, note } = evidenceDetailsSchemas;
/** One finding; `details` is typed by its source (null: none, or unreadable). */
export const evidenceItemSchema = z.discriminatedUnion('source', [
  z.object({ ...evidenceItemFields, source: z.literal('exif'), details: exif.nullable() }),
  z.object({ ...evidenceItemFields, source: z.literal('ocr'), details: ocr.nullable() }),
  z.object({ ...evidenceItemFields, source: z.literal('ai'), details: ai.nullable() }),
  z.object({ ...evidenceItemFields, source: z.literal('manual'), details: manual.nullable() }),
  z.object({ ...evidenceItemFields, source: z.literal('duplicate'), details: duplicate.nullable() }),
  z.object({ ...evidenceItemFields, source: z.literal('note'), details: note.nullable() }),
]);
export type EvidenceItem = z.infer<typeof evidenceItemSchema>;
