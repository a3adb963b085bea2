/**
 * The shapes the contract's calls and events carry (settings, jobs, photos, imports, evidence), with
 * the bounds that keep every message a known size. `contract.ts` defines the calls over them and
 * re-exports them, so the rest of the app imports from there.
 */
import { z } from 'zod';
import { JOB_STATUSES } from './jobs/states';
import { aiBackendKinds } from './ai/schema';
import { numericDateOrderSchema } from './caption-dates';
import { ocrLanguagesSchema } from './ocr-languages';
import { estimateStatusSchema, estimateViewSchema } from './estimate-view';

import { evidenceItemSchema } from './evidence-details';

import { ocrReadLineSchema } from './jobs/outputs/ocr';

export const id = z.number().int().positive();
export const empty = z.object({}).strict();

/**
 * Bounds on inputs that would otherwise have none, so that every call's largest valid message has
 * a known size and fits the browser-mode transport (src/shared/wire-limits.ts; the test builds
 * each call's largest message and sends it through a real socket).
 */
export const INPUT_LIMITS = {
  /** A job payload, as JSON text (UTF-16 code units). */
  jobPayloadChars: 1024 * 1024,
  /** All the paths of one photos.import together (UTF-16 code units). */
  importPathsChars: 512 * 1024,
  /** A photos.list cursor's sort value (a filename at most, in practice). */
  cursorValueChars: 1024,
} as const;

export function jsonAtMost(maxChars: number) {
  return (value: unknown): boolean => {
    try {
      return JSON.stringify(value).length <= maxChars;
    } catch {
      return false; // cyclic or too deeply nested to serialise
    }
  };
}

// ---------------------------------------------------------------- app
export const healthSchema = z.object({
  version: z.string(),
  mode: z.enum(['electron', 'browser']),
  libraryDir: z.string(),
  schemaVersion: z.number().int(),
  uptimeMs: z.number(),
  /** alive: ready for jobs; starting: on their way (not an error); failed: could not be started. */
  workers: z.object({
    alive: z.number().int(),
    configured: z.number().int(),
    starting: z.number().int(),
    failed: z.number().int(),
  }),
  paused: z.boolean(),
  /** The workers' memory budget (src/shared/worker-budget.ts): the machine's memory, and what it allows. */
  workerMemory: z.object({
    totalMb: z.number().int(),
    workers: z.number().int(),
    maxWorkers: z.number().int(),
    heapMb: z.number().int(),
  }),
});

// ---------------------------------------------------------------- settings
/**
 * What an import says about its files. detect: scans, unless the EXIF names a camera that is not a
 * scanner; all_scans: every file is a scan, even one made with a camera (copy stand); originals:
 * camera originals, unless the EXIF names a scanner.
 */
export const scanPolicies = ['detect', 'all_scans', 'originals'] as const;
export type ScanPolicy = (typeof scanPolicies)[number];
/** The archivist's word on one photo, over its import's policy. */
export const scanOverrides = ['scan', 'original'] as const;
export type ScanOverride = (typeof scanOverrides)[number];
export const scanPolicySchema = z.enum(scanPolicies);

export const settingsSchema = z.object({
  workerCount: z.number().int().min(1).max(16),
  jobRetentionDays: z.number().int().min(1).max(3650),
  /** What the import panel proposes for new imports. */
  defaultScanPolicy: scanPolicySchema,
  aiBackend: z.enum(aiBackendKinds),
  aiBaseUrl: z.string().max(500),
  aiModel: z.string().max(200),
  /** Automatic backups while the app runs; a missed one runs at the next start. */
  backupSchedule: z.enum(['off', 'daily', 'weekly']),
  /** Rotation: the newest backup of each of the last N days, and of the last N weeks. */
  backupKeepDaily: z.number().int().min(0).max(366),
  backupKeepWeekly: z.number().int().min(0).max(520),
  /** An absolute folder (e.g. on an external drive); empty: the library's backups/ folder. */
  /** How numeric dates such as 7/4/1906 are read in captions and notes: month first, day first, or both kept. */
  numericDateOrder: numericDateOrderSchema,
  backupDir: z
    .string()
    .max(4096)
    .refine((p) => p === '' || (/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(p) && !p.includes('\0')), 'must be an absolute folder path'),
  /** The languages OCR reads (Tesseract's data for each ships with the app); English alone by default. */
  ocrLanguages: ocrLanguagesSchema,
});
export type Settings = z.infer<typeof settingsSchema>;

// ---------------------------------------------------------------- jobs
export const jobStatusSchema = z.enum(JOB_STATUSES);
/** Product types (JOB_TYPES) plus, when diagnostics are on, `diag.*`; main checks against its registry. */
export const jobTypeSchema = z.string().regex(/^[a-z][a-z_.]{0,59}$/, 'not a job type name');

export const jobSummarySchema = z.object({
  id,
  type: z.string(),
  status: jobStatusSchema,
  subject: z.string().nullable(),
  attempt: z.number().int(),
  retryCount: z.number().int(),
  maxRetries: z.number().int(),
  progress: z.number().nullable(),
  progressMessage: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** How the last error was classified: `permanent` means a retry cannot fix it (retried only when asked to). */
  errorKind: z.enum(['retryable', 'permanent', 'retry_later']).nullable(),
  /** When the archivist dismissed this failure (or retried it); null while it still needs attention. */
  acknowledgedAt: z.number().nullable(),
  /** The photo a per-photo job is about, by name (null for other jobs). */
  photo: z.object({ id, filename: z.string() }).nullable(),
  resultSummary: z.string().nullable(),
  cancelRequested: z.boolean(),
  runAfter: z.number(),
  createdAt: z.number(),
  startedAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  updatedAt: z.number(),
});
export type JobSummary = z.infer<typeof jobSummarySchema>;

export const auditEventSchema = z.object({
  id,
  at: z.number(),
  event: z.string(),
  actor: z.string(),
  data: z.record(z.string(), z.unknown()),
});

export const jobDetailsSchema = jobSummarySchema.extend({
  payload: z.unknown(),
  errorStack: z.string().nullable(),
  claimedBy: z.string().nullable(),
  leaseExpiresAt: z.number().nullable(),
  priority: z.number().int(),
  audit: z.array(auditEventSchema),
});
export type JobDetails = z.infer<typeof jobDetailsSchema>;

export const jobCountsSchema = z.object({
  queued: z.number().int(),
  running: z.number().int(),
  success: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});
export type JobCounts = z.infer<typeof jobCountsSchema>;

// ---------------------------------------------------------------- photos

export const photoSummarySchema = z.object({
  id,
  filename: z.string(),
  path: z.string(),
  format: z.string().nullable(),
  displayWidth: z.number().int().nullable(),
  displayHeight: z.number().int().nullable(),
  /** Changes whenever the thumbnail changes: use it to bust the image cache. Null: no thumbnail yet. */
  thumbnailVersion: z.string().nullable(),
  metadataStatus: z.enum(['pending', 'ready', 'failed']),
  metadataError: z.string().nullable(),
  /**
   * While the photo has not been read (`pending`): its latest metadata job, so a tile can say
   * whether it is queued, being read, waiting to retry (and why) or cancelled. Null otherwise, or
   * when there is no job.
   */
  metadataJob: z.object({ id, status: jobStatusSchema, runAfter: z.number(), errorMessage: z.string().nullable() }).nullable(),
  missing: z.boolean(),
  camera: z.string().nullable(),
  exifDate: z.string().nullable(),
  estimateStatus: estimateStatusSchema,
  estimateEarliest: z.number().int().nullable(),
  estimateLatest: z.number().int().nullable(),
  /** DACS wording of the estimate, e.g. "circa 1935–1942". */
  estimateLabel: z.string().nullable(),
  /** How many findings are only clues, not dates (src/shared/dating/clue-rule.ts): "undated · 1 weak clue". */
  clueCount: z.number().int().min(0),
  importedAt: z.number(),
});
export type PhotoSummary = z.infer<typeof photoSummarySchema>;

/** The latest OCR reading of a photo, line by line: shown even when it holds no date. */
export const ocrReadingSchema = z.object({
  text: z.string(),
  /** Tesseract's mean confidence, 0..100. */
  confidence: z.number().min(0).max(100),
  lines: z.array(ocrReadLineSchema),
  /** The oriented image's size: the space of the line boxes. */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  method: z.string(),
  /** Readings made of the image, and the worker's time for them (absent on readings stored before). */
  attempts: z.number().int().positive().optional(),
  readMs: z.number().min(0).optional(),
  jobId: z.number().int().nullable(),
  readAt: z.number(),
});
export type OcrReading = z.infer<typeof ocrReadingSchema>;

export const photoDetailsSchema = photoSummarySchema.extend({
  size: z.number().int(),
  sha256: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  orientation: z.number().int().nullable(),
  /** Pages in its file (a multi-page TIFF: a print's front and back, an album leaf's pages); 1 for most. */
  pageCount: z.number().int().min(1),
  isScan: z.boolean().nullable(),
  /** Why it is (not) taken for a scan, in words; null before its metadata was read. */
  scanReason: z.string().nullable(),
  /** What its import said about its files (null: imported before imports asked). */
  scanPolicy: scanPolicySchema.nullable(),
  /** The archivist's word on this photo (null: as the import's policy decides). */
  scanOverride: z.enum(scanOverrides).nullable(),
  /** The file system's modification time at import (never used as evidence: copying changes it). */
  fileModifiedAt: z.number().nullable(),
  /** The selected EXIF/XMP/IPTC fields as found (raw strings, never time-zone shifted). */
  exif: z.record(z.string(), z.unknown()).nullable(),
  phash: z.string().nullable(),
  notes: z.string(),
  /** Null until OCR has run. */
  ocr: ocrReadingSchema.nullable(),
  jobs: z.array(jobSummarySchema),
});
export type PhotoDetails = z.infer<typeof photoDetailsSchema>;

/** Pages of one file Circa will show (a multi-page TIFF's count is read from its header). */
export const MAX_PAGES = 10_000;

/** How the photo screen shows a page of a photo at full resolution (see src/main/media/viewer.ts). */
export const viewerSchema = z.discriminatedUnion('kind', [
  /** The original itself (mediaUrl('original')), drawn by the window. */
  z.object({ kind: z.literal('image'), width: z.number().int(), height: z.number().int(), version: z.string() }),
  /** A Deep Zoom pyramid: mediaUrl('tile', id, version, { level, col, row, page }); tiles not made yet are cut when asked for. */
  z.object({
    kind: z.literal('tiles'),
    width: z.number().int(),
    height: z.number().int(),
    tileSize: z.number().int(),
    overlap: z.number().int(),
    levels: z.number().int(),
    version: z.string(),
  }),
  z.object({ kind: z.literal('unavailable'), reason: z.string(), job: jobSummarySchema.nullable() }),
]);
export type Viewer = z.infer<typeof viewerSchema>;

export const photoCursorSchema = z.object({
  v: z.union([z.string().max(INPUT_LIMITS.cursorValueChars), z.number(), z.null()]),
  id,
});

export const importProgressSchema = z.object({
  id: z.number().int(),
  status: z.enum(['running', 'done', 'cancelled', 'failed']),
  roots: z.array(z.string()),
  found: z.number().int(),
  hashed: z.number().int(),
  added: z.number().int(),
  duplicates: z.number().int(),
  skipped: z.number().int(),
  /** Files that could not be imported (missing, unreadable at import): not in the library. */
  failed: z.number().int(),
  /** Files whose content is that of a missing photo: the photo now points to them. */
  relinked: z.number().int(),
  /** Photos under an imported folder whose files are no longer there. */
  markedMissing: z.number().int(),
  /** Photos this import added whose metadata is still being read. */
  reading: z.number().int(),
  /** Photos this import added that turned out unreadable (their metadata job failed). */
  unreadable: z.number().int(),
  /** The files that could not be imported (`failed`), the first 50. */
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
  /** Files left out, each with why (HEIC, not an image, a FIFO or device, a link not followed…); the first few hundred. */
  skippedFiles: z.array(z.object({ path: z.string(), reason: z.string() })),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
  message: z.string().nullable(),
  /** Photos added but unreadable (`unreadable`): in the library, marked so; the first 50, with why. */
  unreadableFiles: z.array(z.object({ path: z.string(), message: z.string() })),
  /** Second copies not added (their content is a photo's already here), each with the file kept; the first few hundred. */
  duplicateFiles: z.array(z.object({ path: z.string(), keptPath: z.string() })),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;

export const pathSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0'), 'path contains a NUL byte');

// ---------------------------------------------------------------- evidence

export const note = z.string().max(2000);

export const actionKinds = [
  'review',
  'review_many',
  'manual_add',
  'manual_edit',
  'manual_remove',
  'notes',
  'scan_override',
] as const;
/** One of the archivist's actions in the undo history (kept in main). */
export const actionSummarySchema = z.object({
  id,
  at: z.number(),
  kind: z.enum(actionKinds),
  /** What was done, e.g. "Accepted #49 (OCR)". */
  label: z.string(),
  /** How many photos it changed (a bulk review: many). */
  photoCount: z.number().int(),
});
export type ActionSummary = z.infer<typeof actionSummarySchema>;
export const evidenceWithEstimate = z.object({ item: evidenceItemSchema, estimate: estimateViewSchema });
