/**
 * The one typed contract between the renderer and main. Every call and every pushed event is
 * defined here once, with zod; main validates every input (and, in development, every output),
 * the renderer validates every output and event. The preload's allow-list is built from it.
 */
import { z } from 'zod';
import { ERROR_CODES } from './result';
import { RERUN_JOB_TYPES } from './jobs/types';
import { estimateViewSchema } from './estimate-view';
import { backupListSchema, restoreReportSchema } from './backup/schemas';
import { captionDatesInput, captionDatesOutput } from './caption-dates';
import {
  duplicateDecisionInputs as duplicateIn,
  duplicateDecisionOutputs as duplicateOut,
  duplicateListInput,
  duplicateListSchema,
} from './duplicates/contract';

export { estimateStatusSchema, estimateViewSchema, type EstimateView } from './estimate-view';
export { backupEntrySchema, backupListSchema, restoreReportSchema, type BackupEntry, type RestoreReport } from './backup/schemas';
import { evidenceItemSchema, evidenceSources, manualConstraintSchema, reviewStatuses } from './evidence-details';

export {
  evidenceItemSchema,
  evidenceSources,
  manualConstraintSchema,
  partialDateSchema,
  reviewStatuses,
  type EvidenceItem,
  type ManualConstraint,
} from './evidence-details';
export type { EvidenceDetails } from './evidence-details';
import {
  INPUT_LIMITS,
  MAX_PAGES,
  actionSummarySchema,
  empty,
  evidenceWithEstimate,
  healthSchema,
  id,
  importProgressSchema,
  jobCountsSchema,
  jobDetailsSchema,
  jobStatusSchema,
  jobSummarySchema,
  jobTypeSchema,
  jsonAtMost,
  note,
  pathSchema,
  photoCursorSchema,
  photoDetailsSchema,
  photoSummarySchema,
  scanOverrides,
  scanPolicySchema,
  settingsSchema,
  viewerSchema,
} from './contract-schemas';

export * from './contract-schemas';
import { photoFilters, photoSorts, yearModes } from './photo-query';
import { ownHistoryEntriesSchema, ownHistoryViewSchema } from './dating/history/own-entries';
export { photoFilters, photoSorts, yearModes } from './photo-query';

// ---------------------------------------------------------------- the contract
function call<I extends z.ZodType, O extends z.ZodType>(input: I, output: O) {
  return { input, output };
}

export const calls = {
  'app.health': call(empty, healthSchema),

  'settings.get': call(empty, settingsSchema),
  /** Refused (invalid_input, with the fields) when an AI backend lacks a web address or a model. */
  'settings.update': call(settingsSchema.partial().strict(), settingsSchema),
  /**
   * Settings → Test connection: one real request to the backend as typed (not necessarily saved),
   * made by a worker as an `ai_test` job; its outcome is that job's (watch jobs.changed).
   */
  'settings.testAi': call(
    settingsSchema.pick({ aiBackend: true, aiBaseUrl: true, aiModel: true }).strict(),
    z.object({ job: jobSummarySchema, paused: z.boolean() }),
  ),

  'jobs.list': call(
    z
      .object({
        statuses: z.array(jobStatusSchema).max(5).optional(),
        types: z.array(jobTypeSchema).max(20).optional(),
        subject: z.string().max(200).optional(),
        /** Refresh specific rows (the Jobs page re-reads rows named by a jobs.changed event). */
        ids: z.array(id).max(500).optional(),
        /** Keyset cursor: the id of the last row of the previous page (list is newest first). */
        beforeId: id.optional(),
        limit: z.number().int().min(1).max(500).default(100),
      })
      .strict(),
    z.object({ items: z.array(jobSummarySchema), nextBeforeId: id.nullable(), total: z.number().int() }),
  ),
  'jobs.types': call(
    empty,
    z.array(
      z.object({
        type: z.string(),
        label: z.string(),
        description: z.string(),
        diagnostic: z.boolean(),
        /** Can be started from the Jobs page without choosing a subject (payload {}). */
        startable: z.boolean(),
      }),
    ),
  ),
  'jobs.get': call(z.object({ id }).strict(), jobDetailsSchema),
  /** `unseenFailed`: failures nobody has dismissed or retried yet (the red badge). */
  'jobs.counts': call(empty, z.object({ counts: jobCountsSchema, paused: z.boolean(), unseenFailed: z.number().int() })),
  'jobs.enqueue': call(
    z
      .object({
        type: jobTypeSchema,
        payload: z
          .record(z.string(), z.unknown())
          .refine(
            jsonAtMost(INPUT_LIMITS.jobPayloadChars),
            `payload larger than ${INPUT_LIMITS.jobPayloadChars} characters of JSON`,
          ),
        priority: z.number().int().min(-100).max(100).optional(),
      })
      .strict(),
    z.object({ job: jobSummarySchema, created: z.boolean() }),
  ),
  'jobs.cancel': call(z.object({ id }).strict(), jobSummarySchema),
  /**
   * Failed/cancelled: a new job for the same work (the failure counts as seen). Queued and waiting
   * on backoff: run now. A permanent failure is retried only with `force` (a `conflict` says why).
   */
  'jobs.retry': call(
    z.object({ id, force: z.boolean().optional() }).strict(),
    z.object({ job: jobSummarySchema, created: z.boolean() }),
  ),
  /** Every failure not yet seen that a retry may fix; permanent failures are counted, not retried. */
  'jobs.retryAllFailed': call(
    z.object({ types: z.array(jobTypeSchema).max(20).optional() }).strict(),
    z.object({ requeued: z.number().int(), skippedPermanent: z.number().int() }),
  ),
  /** Dismisses failures (named, or every one not yet seen): they stay in the list, out of the badge; audited. */
  'jobs.acknowledge': call(
    z.union([z.object({ ids: z.array(id).min(1).max(10_000) }).strict(), z.object({ all: z.literal(true) }).strict()]),
    z.object({ acknowledged: z.number().int() }),
  ),
  'jobs.setPaused': call(z.object({ paused: z.boolean() }).strict(), z.object({ paused: z.boolean() })),

  'photos.list': call(
    z
      .object({
        sort: z.enum(photoSorts).default('imported'),
        filter: z.enum(photoFilters).default('all'),
        search: z.string().max(200).optional(),
        /** Photos dated in these years (either may be left open); see `yearMode`. */
        yearFrom: z.number().int().min(1000).max(2999).optional(),
        yearTo: z.number().int().min(1000).max(2999).optional(),
        /** within (default): the estimate lies inside the years; overlaps: it could be from them. */
        yearMode: z.enum(yearModes).default('within'),
        /** Sort by date and filter by years with an undated photo's clues counted (off: a clue is not a date). */
        includeClues: z.boolean().default(false),
        /** Keyset cursor from the previous page's `nextCursor`. */
        cursor: photoCursorSchema.optional(),
        /** Re-read specific photos (named by a photos.changed event). */
        ids: z.array(id).max(500).optional(),
        limit: z.number().int().min(1).max(500).default(200),
      })
      .strict()
      .superRefine((q, ctx) => {
        if (q.yearFrom !== undefined && q.yearTo !== undefined && q.yearFrom > q.yearTo)
          ctx.addIssue({
            code: 'custom',
            message: `The years are the wrong way round: ${q.yearFrom} is after ${q.yearTo}`,
            path: ['yearTo'],
          });
      }),
    z.object({
      items: z.array(photoSummarySchema),
      nextCursor: photoCursorSchema.nullable(),
      total: z.number().int(),
      /** False when a search or a year range matches more than Circa counts: `total` is then a lower bound. */
      totalExact: z.boolean(),
    }),
  ),
  'photos.get': call(z.object({ id }).strict(), photoDetailsSchema),
  /**
   * How to show a page of the photo (from 1; a multi-page TIFF has several) at full resolution;
   * starts making its zoom view when it needs one.
   */
  'photos.viewer': call(z.object({ id, page: z.number().int().min(1).max(MAX_PAGES).optional() }).strict(), viewerSchema),
  /**
   * The photos on screen now (the grid's visible tiles, or the open photo): their queued jobs run
   * before other queued work; those of photos no longer on screen go back to their turn.
   */
  'photos.inView': call(z.object({ ids: z.array(id).max(500) }).strict(), z.object({ prioritized: z.number().int() })),
  /** Imports files and folders (recursively) by path on this machine; progress arrives as import.progress events. */
  'photos.import': call(
    z
      .object({
        paths: z
          .array(pathSchema)
          .min(1)
          .max(1000)
          .refine(
            (paths) => paths.reduce((n, p) => n + p.length, 0) <= INPUT_LIMITS.importPathsChars,
            `the paths together are longer than ${INPUT_LIMITS.importPathsChars} characters; import fewer at once`,
          ),
        /** The archivist confirmed an import Circa asked about (needs_confirmation: a whole disk, a huge folder). */
        confirmed: z.boolean().optional(),
        scanPolicy: scanPolicySchema.optional(),
      })
      .strict(),
    importProgressSchema,
  ),
  /** Electron only: asks the user for files/folders with the system dialog, then imports them. */
  'photos.chooseAndImport': call(z.object({ scanPolicy: scanPolicySchema.optional() }).strict(), importProgressSchema.nullable()),
  'photos.importStatus': call(empty, importProgressSchema.nullable()),
  'photos.cancelImport': call(z.object({ id: z.number().int() }).strict(), importProgressSchema),
  /** Re-runs a job type for photos; idempotent (an active job is returned, not duplicated). */
  'photos.rerun': call(
    z.object({ ids: z.array(id).min(1).max(100_000), type: z.enum(RERUN_JOB_TYPES) }).strict(),
    z.object({
      created: z.number().int(),
      alreadyActive: z.number().int(),
      /** OCR or analysis not started: the photo's file could not be read as an image (its metadata job failed). */
      unreadable: z.number().int(),
    }),
  ),
  /** Removes photos from the library (never their files); their evidence and reviews are kept in the audit ledger. */
  'photos.remove': call(
    z.object({ ids: z.array(id).min(1).max(100_000) }).strict(),
    z.object({
      removed: z.number().int(),
      /** What `photos.undoRemove` takes to bring them back, until `undoUntil`. */
      undo: z.object({ first: id, last: id }).nullable(),
      undoUntil: z.number().nullable(),
    }),
  ),
  'photos.undoRemove': call(
    z.object({ first: id, last: id }).strict(),
    z.object({ restored: z.number().int(), skipped: z.number().int() }),
  ),
  /**
   * Locate…: where missing photos went. `path` (a file, or a folder searched with its subfolders)
   * is checked here — it must exist and be readable; then a `locate` job relinks every missing
   * photo whose content (SHA-256) is found there. `photoIds` or `folder` name the photos looked
   * for, so the job's summary can say how many of them are still missing.
   */
  'photos.locate': call(
    z.object({ path: pathSchema, photoIds: z.array(id).min(1).max(100_000).optional(), folder: pathSchema.optional() }).strict(),
    z.object({ job: jobSummarySchema, created: z.boolean(), kind: z.enum(['file', 'folder']) }),
  ),
  /** The folders the missing photos were in, most photos first (the "Missing files" view offers Locate… for each). */
  'photos.missingFolders': call(
    empty,
    z.object({
      items: z.array(z.object({ folder: z.string(), count: z.number().int() })),
      folders: z.number().int(),
      photos: z.number().int(),
    }),
  ),
  /** Electron only: asks for a file or a folder with the system dialog (where a missing photo went). */
  'photos.chooseLocation': call(
    z.object({ kind: z.enum(['file', 'folder']) }).strict(),
    z.object({ path: z.string().nullable() }),
  ),
  'photos.setNotes': call(
    z.object({ id, notes: z.string().max(20_000) }).strict(),
    z.object({ notes: z.string(), action: actionSummarySchema.nullable() }),
  ),
  /** Whether this photo is a scan, over its import's choice (null: as the import decides); re-reads its EXIF dates. */
  'photos.setScanOverride': call(
    z.object({ id, override: z.enum(scanOverrides).nullable() }).strict(),
    z.object({
      isScan: z.boolean().nullable(),
      scanReason: z.string().nullable(),
      scanOverride: z.enum(scanOverrides).nullable(),
      action: actionSummarySchema.nullable(),
    }),
  ),

  'evidence.list': call(
    z.object({ photoId: id, includeSuperseded: z.boolean().default(false) }).strict(),
    z.object({ items: z.array(evidenceItemSchema), estimate: estimateViewSchema }),
  ),
  /** Accept, reject or reset one finding; one action in the undo history, recorded in the audit ledger. */
  'evidence.review': call(z.object({ id, status: z.enum(reviewStatuses), note: note.optional() }).strict(), evidenceWithEstimate),
  /** One kind of finding across a selection (e.g. every pending EXIF bound), as one action that is undone as one. */
  'evidence.reviewMany': call(
    z
      .object({
        photoIds: z.array(id).min(1).max(100_000),
        source: z.enum(evidenceSources),
        kind: z.enum(['bound', 'estimate']).optional(),
        from: z.enum(reviewStatuses).default('pending'),
        status: z.enum(reviewStatuses),
        note: note.optional(),
      })
      .strict()
      .refine((q) => q.from !== q.status, { message: 'from and status are the same: nothing would change', path: ['status'] }),
    z.object({ action: actionSummarySchema.nullable(), changed: z.number().int(), photos: z.number().int() }),
  ),
  'evidence.addManual': call(z.object({ photoId: id, constraint: manualConstraintSchema, note }).strict(), evidenceWithEstimate),
  'evidence.updateManual': call(z.object({ id, constraint: manualConstraintSchema, note }).strict(), evidenceWithEstimate),
  'evidence.removeManual': call(z.object({ id }).strict(), z.object({ estimate: estimateViewSchema })),

  /** What undo would reverse on this photo (the latest of the archivist's actions not yet undone), or null. */
  'history.last': call(z.object({ photoId: id }).strict(), z.object({ action: actionSummarySchema.nullable() })),
  /**
   * Reverses one action: the one the archivist was shown (so two windows cannot interleave), only if
   * it is still the latest on its photos and nothing changed since; otherwise a `conflict` says why.
   * `photoId` scopes it to a photo screen and asks for that photo's next action to undo.
   */
  'history.undo': call(
    z.object({ actionId: id, photoId: id.optional() }).strict(),
    z.object({
      undone: actionSummarySchema,
      message: z.string(),
      photoIds: z.array(id),
      next: actionSummarySchema.nullable(),
    }),
  ),

  'settings.apiKeyStatus': call(
    empty,
    z.object({
      hasApiKey: z.boolean(),
      source: z.enum(['environment', 'encrypted']).nullable(),
      canStore: z.boolean(),
      /** keychain: protected by the OS; basic: Linux without a keyring, obfuscated only; unavailable: desktop, no storage; browser: browser mode. */
      storage: z.enum(['keychain', 'basic', 'unavailable', 'browser']),
    }),
  ),
  /** Stores (encrypted) or clears the AI API key. The key is never sent back. */
  'settings.setApiKey': call(
    z.object({ apiKey: z.string().min(1).max(500).nullable() }).strict(),
    z.object({ hasApiKey: z.boolean() }),
  ),

  /** Electron only: shows the photo's file in the system file manager. */
  'photos.reveal': call(z.object({ id }).strict(), z.object({ revealed: z.boolean() })),

  /** The backups in the backup folder (and the library's own backups/), newest first. Back up now: jobs.enqueue `backup`. */
  'backups.list': call(empty, backupListSchema),
  /** Replaces the library with a backup from the list; the current library is kept as a safety copy. */
  'backups.restore': call(
    z
      .object({
        name: z
          .string()
          .max(255)
          .regex(/^circa-[\w.-]+\.db$/, 'not the name of a Circa backup'),
      })
      .strict(),
    restoreReportSchema,
  ),
  /** Electron only: asks for a folder with the system dialog (an export's destination). */
  'export.chooseFolder': call(empty, z.object({ path: z.string().nullable() })),

  /** Duplicates to review and decisions about them (each audited; evidence travels between confirmed copies). */
  'duplicates.list': call(duplicateListInput, duplicateListSchema),
  'duplicates.confirm': call(duplicateIn.confirm, duplicateOut.confirm),
  'duplicates.notSame': call(duplicateIn.notSame, duplicateOut.notSame),
  'duplicates.proposeAgain': call(duplicateIn.proposeAgain, duplicateOut.proposeAgain),
  'duplicates.unconfirm': call(duplicateIn.unconfirm, duplicateOut.unconfirm),
  'duplicates.removeFromGroup': call(duplicateIn.removeFromGroup, duplicateOut.removeFromGroup),
  'duplicates.setPreferred': call(duplicateIn.setPreferred, duplicateOut.setPreferred),

  /** The archivist's own history entries, read beside Circa's sourced catalogue of events and periods. */
  'historyEntries.list': call(empty, ownHistoryViewSchema),
  /** Replaces the archivist's own entries; each is checked like a catalogue entry (names, dates, source). */
  'historyEntries.save': call(z.object({ entries: ownHistoryEntriesSchema }).strict(), ownHistoryViewSchema),
  /** The dates read in a caption or note, with the library's numeric date order (nothing is saved). */
  'dating.readCaption': call(captionDatesInput, captionDatesOutput),
} as const;

export const events = {
  /** Coalesced: at most a few per second however many transitions happen. */
  'jobs.changed': z.object({
    counts: jobCountsSchema,
    paused: z.boolean(),
    changedIds: z.array(id).max(500),
    unseenFailed: z.number().int(),
  }),
  /** Coalesced; `all` when too many changed to list (reload everything visible). */
  'photos.changed': z.object({ ids: z.array(id).max(500), all: z.boolean() }),
  'import.progress': importProgressSchema,
  /** A backup was added or removed (the Backups screen re-reads its list). */
  'backups.changed': z.object({}),
  /** Desktop only: the application menu asks the window to open one of its own dialogs (File → Export…). */
  'menu.command': z.object({ command: z.enum(['export']) }),
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallInput<N extends CallName> = z.input<Calls[N]['input']>;
export type CallOutput<N extends CallName> = z.output<Calls[N]['output']>;
export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<N extends EventName> = z.output<Events[N]>;

export const CALL_NAMES = Object.keys(calls) as CallName[];
export const EVENT_NAMES = Object.keys(events) as EventName[];

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(calls, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

export const callErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })).optional(),
});

/** What travels over a transport (Electron IPC or the browser-mode WebSocket). */
export const wireRequestSchema = z.object({ id: z.number().int(), call: z.string().max(100), input: z.unknown() });
export type WireRequest = z.infer<typeof wireRequestSchema>;
export type WireMessage = { kind: 'result'; id: number; result: unknown } | { kind: 'event'; event: EventName; payload: unknown };
