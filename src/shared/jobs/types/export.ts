/**
 * `export`: a selection, a filter or the whole library written to a folder the archivist chose, as
 * CSV, JSON (the documented `circa-export` schema, src/shared/export/export-record.ts) and/or XMP
 * sidecars. Checkpointed: main reads the photos in short chunks, the worker appends them to the
 * files (each under a temporary name until the last step renames it), and a crash resumes from the
 * last chunk committed (the files are cut back to the length recorded with it).
 */
import { z } from 'zod';
import { defineJobType, trusted } from '../define';
import { photoFilters, yearModes } from '../../photo-query';
import { photoId, MINUTE } from './common';

export const exportFormats = ['csv', 'json', 'xmp'] as const;
export type ExportFormat = (typeof exportFormats)[number];

/** An absolute path (POSIX, a Windows drive, or a UNC share). */
export const absolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(p) && !p.includes('\0'), 'must be an absolute folder path');

const year = z.number().int().min(1000).max(2999);

export const exportScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }).strict(),
  z.object({ kind: z.literal('ids'), ids: z.array(photoId).min(1).max(100_000) }).strict(),
  z
    .object({
      kind: z.literal('filter'),
      filter: z.enum(photoFilters),
      search: z.string().max(200).optional(),
      yearFrom: year.optional(),
      yearTo: year.optional(),
      yearMode: z.enum(yearModes).optional(),
      /** The year range counts an undated photo's clues (the files still say it is undated). */
      includeClues: z.boolean().optional(),
    })
    .strict(),
]);
export type ExportScope = z.infer<typeof exportScopeSchema>;

const count = z.number().int().min(0);

/** Written by the runtime between chunks: where to go on, and how long each file was then. */
export const exportCursorSchema = z
  .object({
    afterId: count,
    done: count,
    total: count,
    startedAt: z.number().int(),
    csvBytes: count,
    jsonBytes: count,
    jsonItems: count,
    xmpWritten: count,
    xmpFailed: count,
  })
  .strict();
export type ExportCursor = z.infer<typeof exportCursorSchema>;

export const exportPayloadSchema = z
  .object({
    destination: absolutePath,
    formats: z
      .array(z.enum(exportFormats))
      .min(1)
      .max(3)
      .refine((f) => new Set(f).size === f.length, 'each format once'),
    scope: exportScopeSchema.default({ kind: 'all' }),
    /** Write each sidecar next to its original instead of into the export folder (the original is never touched). */
    sidecarsNextToOriginals: z.boolean().default(false),
    cursor: exportCursorSchema.optional(),
  })
  .strict();

export interface ExportFile {
  temp: string;
  final: string;
}

export interface ExportInput {
  csv: ExportFile | null;
  json: ExportFile | null;
  /** Where sidecars go: a folder in the export (written under its temporary name), or beside each original. */
  xmp: { dir: ExportFile | null; nextToOriginals: boolean } | null;
  /** The files are cut back to these lengths before this chunk is appended (a resumed step). */
  resume: { csvBytes: number; jsonBytes: number; jsonItems: number };
  /** This step's photos, in id order: JSON arrays of ExportPhotoRow (text crosses the process boundary as a copy). */
  photoChunks: string[];
  /** The last chunk: close the files and rename them into place. */
  last: boolean;
  exportedAt: string;
  appVersion: string;
  progress: { done: number; total: number };
}

export const exportOutputSchema = z.object({
  written: count,
  lastId: count,
  csvBytes: count,
  jsonBytes: count,
  jsonItems: count,
  xmpWritten: count,
  xmpFailures: z.array(z.object({ photoId: count, message: z.string().max(2000) })).max(1000),
  /** The last step is done: the files are closed and renamed into place. */
  finished: z.boolean(),
  /** The files as renamed into place (last step only). */
  files: z.array(z.string().max(4096)).max(10),
});
export type ExportOutput = z.infer<typeof exportOutputSchema>;

export const exportJobType = defineJobType({
  type: 'export',
  description: 'Write photos, estimates and evidence to a folder as CSV, JSON and/or XMP sidecars.',
  payload: exportPayloadSchema,
  input: trusted<ExportInput>(),
  output: exportOutputSchema,
  subject: (p) => `export:${p.destination}`,
  // Main reads each step asynchronously (see LoadContext): handed over alone.
  policy: { maxRetries: 2, timeoutMs: 30 * MINUTE, handOff: 1, prefetch: 0, checkpointed: true },
  limits: {},
  ui: { label: 'Export', inSentence: 'the export' },
});
export type ExportJobType = typeof exportJobType;
