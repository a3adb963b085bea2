// What one named event or period is, as data: its names in the archivist's languages, its
// interval as far as it is known, whether naming it dates a picture or only bounds it, and where
// an archivist can check it. The same schema holds Circa's own catalogue (data/*.json) and the
// entries an archivist adds for their collection (kept in the library's settings).
import { z } from 'zod';
import { partialDateProblem, partialEnd, partialPrecision, partialStart, type PartialDate } from '../partial-date';
import type { Precision } from '../types';

/** The languages names are given in; `own` is for an archivist's entry, in whatever language they write. */
export const HISTORY_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt'] as const;
export type HistoryLanguage = (typeof HISTORY_LANGUAGES)[number];

/** "1945", "1945-05" or "1945-05-08": a date to the precision it is known. */
const PARTIAL_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

export function parsePartialDate(text: string): PartialDate | null {
  const m = PARTIAL_DATE.exec(text);
  if (!m) return null;
  const d: PartialDate = { year: Number(m[1]) };
  if (m[2]) d.month = Number(m[2]);
  if (m[3]) d.day = Number(m[3]);
  return partialDateProblem(d) ? null : d;
}

const partialDateText = z
  .string()
  .max(10)
  .refine((s) => parsePartialDate(s) !== null, { message: 'a date as YYYY, YYYY-MM or YYYY-MM-DD' });

/** A name as written in captions; `[King]` marks a word that may be left out. */
const name = z.string().trim().min(2).max(120);

export const historySourceSchema = z
  .object({
    /** Where it was published: "Wikipedia", "Bureau International des Expositions", "The London Gazette". */
    work: z.string().trim().min(1).max(200),
    /** The article or record's title, as an archivist would look it up. */
    title: z.string().trim().min(1).max(300),
    url: z.string().url().max(500).optional(),
  })
  .strict();

export const historyEntrySchema = z
  .object({
    /** Stable and unique: lower-case words joined by hyphens. */
    id: z
      .string()
      .max(80)
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case letters, digits and hyphens'),
    /** An event happens once (a coronation, a fair); a period is an age or a span (an era, a war). */
    kind: z.enum(['event', 'period']),
    names: z
      .object(
        Object.fromEntries(HISTORY_LANGUAGES.map((l) => [l, z.array(name).max(20).optional()])) as Record<
          HistoryLanguage,
          z.ZodOptional<z.ZodArray<typeof name>>
        >,
      )
      .strict()
      .refine((n) => Object.values(n).some((list) => list && list.length > 0), { message: 'at least one name' }),
    /** Start and end as far as known; null: open (a period with no end, like "post-war"). */
    from: partialDateText.nullable(),
    to: partialDateText.nullable(),
    /**
     * dates: naming it places the picture in the interval (an estimate: "V-E Day celebrations");
     * bounds: it only limits the picture (a hard bound: "between the wars", "post-war").
     */
    evidence: z.enum(['dates', 'bounds']),
    source: historySourceSchema,
    /** Read only after "after", "before" or "during" ("the war" alone names nothing). */
    qualifiedOnly: z.boolean().optional(),
    /**
     * Kept every year on this day: "Armistice Day 1925" is 11 November 1925; without a year the
     * name says only that the picture is not before `from` (nor after `until`'s day, if set).
     */
    yearly: z
      .object({
        month: z.number().int().min(1).max(12),
        day: z.number().int().min(1).max(31),
        from: z.number().int().min(1000).max(2999),
        until: z.number().int().min(1000).max(2999).optional(),
      })
      .strict()
      .optional(),
    /** What an archivist should know about the dates (a calendar, a second season, a convention). */
    note: z.string().max(500).optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.from === null && e.to === null) ctx.addIssue({ code: 'custom', message: 'needs a start or an end', path: ['from'] });
    const from = e.from ? parsePartialDate(e.from) : null;
    const to = e.to ? parsePartialDate(e.to) : null;
    if (from && to && partialStart(from) > partialEnd(to)) {
      ctx.addIssue({ code: 'custom', message: 'ends before it starts', path: ['to'] });
    }
    if (e.yearly?.until !== undefined && e.yearly.until < e.yearly.from) {
      ctx.addIssue({ code: 'custom', message: 'kept until a year before it began', path: ['yearly', 'until'] });
    }
  });

export type HistoryEntry = z.infer<typeof historyEntrySchema>;
export type HistorySource = z.infer<typeof historySourceSchema>;

/** An interval end as a day number and how finely it was known. */
export interface HistoryEnd {
  day: number;
  precision: Precision;
}

/** The first day of the entry, or null when it has no known start. */
export function entryStart(e: Pick<HistoryEntry, 'from'>): HistoryEnd | null {
  const d = e.from ? parsePartialDate(e.from) : null;
  return d ? { day: partialStart(d), precision: partialPrecision(d) } : null;
}

/** The last day of the entry, or null when it is open. */
export function entryEnd(e: Pick<HistoryEntry, 'to'>): HistoryEnd | null {
  const d = e.to ? parsePartialDate(e.to) : null;
  return d ? { day: partialEnd(d), precision: partialPrecision(d) } : null;
}

/** Every name of the entry, in all its languages. */
export function allNames(e: Pick<HistoryEntry, 'names'>): string[] {
  return HISTORY_LANGUAGES.flatMap((l) => e.names[l] ?? []);
}

/** "Wikipedia, “Victory in Europe Day”": how the source reads in an explanation. */
export function citeSource(s: HistorySource): string {
  return `${s.work}, “${s.title}”`;
}
