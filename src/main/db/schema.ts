/**
 * The library's schema, defined once for drizzle. SQL migrations in /migrations are generated
 * from this file (`npm run db:generate`) and are never edited once they have landed.
 *
 * Conventions: timestamps are INTEGER milliseconds since the epoch; dates of photos are INTEGER
 * day numbers YYYYMMDD (sortable, readable); JSON columns are TEXT.
 */
import { sql } from 'drizzle-orm';
import { blob, check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { PHOTO_HASH_METHOD } from '../../shared/duplicates/hash-set';

export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(), // JSON
  updatedAt: integer('updated_at').notNull(),
});

/**
 * The "by date" sort key: the known end of the estimate (its start, or its end when only that is
 * known), doubled, plus one when an end is open — so on the same day a closed estimate sorts
 * before an open one. NULL (sorted last) when the photo is undated or in conflict.
 */
// CASE rather than coalesce(): drizzle-kit splits an index's expressions at commas.
export const DATE_KEY_SQL = `((CASE WHEN "estimate_earliest" IS NULL THEN "estimate_latest" ELSE "estimate_earliest" END) * 2 + ("estimate_earliest" IS NULL OR "estimate_latest" IS NULL))`;
const DATE_KEY = sql.raw(DATE_KEY_SQL);

export const photos = sqliteTable(
  'photos',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sha256: text('sha256').notNull(),
    path: text('path').notNull(),
    filename: text('filename').notNull(),
    size: integer('size').notNull(),
    mtimeMs: integer('mtime_ms'),
    format: text('format'),
    width: integer('width'),
    height: integer('height'),
    orientation: integer('orientation'),
    displayWidth: integer('display_width'),
    displayHeight: integer('display_height'),
    /** Pages (or frames) in the file when more than one: what Circa shows and hashes is the first. Null: one. */
    pageCount: integer('page_count'),
    thumbnail: text('thumbnail'), // path relative to the library folder
    phash: text('phash'),
    exif: text('exif'), // JSON: the selected EXIF/XMP/IPTC fields as found
    camera: text('camera'),
    exifDate: text('exif_date'), // raw EXIF string, never shifted by a time zone
    isScan: integer('is_scan', { mode: 'boolean' }),
    /** What the import said about its files (see exif-evidence.ts `decideScan`); null: imported before it asked. */
    scanPolicy: text('scan_policy', { enum: ['detect', 'all_scans', 'originals'] }),
    /** The archivist's word on this photo, over the import's policy; null: as the policy decides. */
    scanOverride: text('scan_override', { enum: ['scan', 'original'] }),
    /** What the scanner detector found in the EXIF (e.g. 'Make/Model "EPSON …" is an Epson scanner'), or null. */
    scannerReason: text('scanner_reason'),
    /** Why this photo is (not) taken for a scan, in words. */
    scanReason: text('scan_reason'),
    metadataStatus: text('metadata_status', { enum: ['pending', 'ready', 'failed'] })
      .notNull()
      .default('pending'),
    metadataError: text('metadata_error'),
    missing: integer('missing', { mode: 'boolean' }).notNull().default(false),
    notes: text('notes').notNull().default(''),
    /** The latest OCR text (all lines), for full-text search; evidence rows keep each run's own text. */
    ocrText: text('ocr_text').notNull().default(''),
    /** JSON: the latest OCR reading line by line, with confidence and box (OcrReading), or null before any. */
    ocrReading: text('ocr_reading'),
    estimateStatus: text('estimate_status', { enum: ['undated', 'needs_review', 'estimated', 'conflict'] })
      .notNull()
      .default('undated'),
    estimateEarliest: integer('estimate_earliest'),
    estimateLatest: integer('estimate_latest'),
    estimate: text('estimate'), // JSON: the full explained estimate
    importedAt: integer('imported_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('photos_sha256_unique').on(t.sha256),
    index('photos_filename_idx').on(t.filename, t.id),
    // Year ranges (photo-listing.ts): every condition a range puts on the estimate is read in the
    // index, so a range's photos are found, and counted, without reading the rows around them.
    index('photos_estimate_range_idx').on(t.estimateStatus, t.estimateEarliest, t.estimateLatest),
    // The grid's "by date estimate" order (see photo-repository.ts DATE_KEY), so that sort walks an
    // index instead of sorting.
    index('photos_date_order_idx').on(sql`(${DATE_KEY} IS NULL)`, sql`(${DATE_KEY})`, t.id),
    index('photos_metadata_status_idx').on(t.metadataStatus),
    // Kept although photos_estimate_range_idx starts with the same column: this one (with the rowid
    // behind it) lets a state filter walk the library in import order without a sort.
    index('photos_estimate_status_idx').on(t.estimateStatus),
    // The "missing" filter: few rows, found without reading the others.
    index('photos_missing_idx')
      .on(t.id)
      .where(sql`${t.missing} = 1`),
  ],
);

export const evidence = sqliteTable(
  'evidence',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    photoId: integer('photo_id')
      .notNull()
      .references(() => photos.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ['exif', 'ocr', 'ai', 'manual', 'duplicate', 'note'] }).notNull(),
    kind: text('kind', { enum: ['bound', 'estimate'] }).notNull(),
    earliest: integer('earliest'),
    latest: integer('latest'),
    precision: text('precision'),
    confidence: real('confidence'),
    summary: text('summary').notNull(),
    details: text('details'), // JSON: OCR text, AI clues, EXIF fields…
    jobId: integer('job_id'),
    attempt: integer('attempt'),
    reviewStatus: text('review_status', { enum: ['pending', 'accepted', 'rejected'] })
      .notNull()
      .default('pending'),
    reviewNote: text('review_note'),
    supersededAt: integer('superseded_at'), // set when a later run replaced this pending finding
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('evidence_photo_idx').on(t.photoId, t.supersededAt),
    check('evidence_interval_check', sql`${t.earliest} IS NULL OR ${t.latest} IS NULL OR ${t.earliest} <= ${t.latest}`),
    check('evidence_has_interval_check', sql`${t.earliest} IS NOT NULL OR ${t.latest} IS NOT NULL`),
  ],
);

export const backgroundJobs = sqliteTable(
  'background_jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    type: text('type').notNull(),
    status: text('status', { enum: ['queued', 'running', 'success', 'failed', 'cancelled'] }).notNull(),
    payload: text('payload').notNull(), // JSON, validated by the type's zod schema
    subject: text('subject'), // what the job is about, e.g. 'photo:42'
    // `type:subject` while the job is active, NULL once terminal: the UNIQUE index then allows at most
    // one active job per (type, subject) and a rerun after a terminal predecessor is a new row.
    idempotencyKey: text('idempotency_key'),
    priority: integer('priority').notNull().default(0),
    attempt: integer('attempt').notNull().default(0), // incremented at claim
    retryCount: integer('retry_count').notNull().default(0),
    maxRetries: integer('max_retries').notNull(),
    runAfter: integer('run_after').notNull(),
    claimedBy: text('claimed_by'),
    leaseExpiresAt: integer('lease_expires_at'),
    startedAt: integer('started_at'),
    finishedAt: integer('finished_at'),
    resultSummary: text('result_summary'),
    errorMessage: text('error_message'),
    errorStack: text('error_stack'),
    /** How the last error was classified (see SerializedJobError): a `permanent` failure is not retried blindly. */
    errorKind: text('error_kind', { enum: ['retryable', 'permanent', 'retry_later'] }),
    /** A failure the archivist has seen and dismissed (or retried): it no longer counts as needing attention. */
    acknowledgedAt: integer('acknowledged_at'),
    progress: real('progress'),
    progressMessage: text('progress_message'),
    cancelRequestedAt: integer('cancel_requested_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('background_jobs_idempotency_key_unique').on(t.idempotencyKey),
    // The claim walks the queue in (priority, run_after, id) order. Only queued jobs are ever
    // claimed, so the index holds only them: it stays small however many jobs have finished, and
    // a job leaves it when it is claimed (a finish does not touch it).
    index('background_jobs_queue_idx')
      .on(t.priority, t.runAfter, t.id)
      .where(sql`${t.status} = 'queued'`),
    index('background_jobs_type_status_idx').on(t.type, t.status),
    index('background_jobs_subject_idx').on(t.subject),
    // Finished jobs by when they finished (pruning). Only those: a queued or running job has no
    // entry, so neither its enqueue nor its success writes a NULL entry and then removes it.
    index('background_jobs_finished_idx')
      .on(t.finishedAt)
      .where(sql`${t.finishedAt} IS NOT NULL`),
    // Jobs by state, newest first (the Jobs page; running jobs for the lease sweep; failures to retry).
    index('background_jobs_status_id_idx').on(t.status, t.id),
    // Failures nobody has dismissed yet: the red badge counts these few rows, not every failure kept.
    index('background_jobs_unseen_failures_idx')
      .on(t.id)
      .where(sql`${t.status} = 'failed' AND ${t.acknowledgedAt} IS NULL`),
    check('background_jobs_status_check', sql`${t.status} IN ('queued','running','success','failed','cancelled')`),
    check(
      'background_jobs_finished_check',
      sql`(${t.finishedAt} IS NOT NULL) = (${t.status} IN ('success','failed','cancelled'))`,
    ),
    check(
      'background_jobs_lease_check',
      sql`(${t.status} = 'running') = (${t.claimedBy} IS NOT NULL AND ${t.leaseExpiresAt} IS NOT NULL)`,
    ),
    check('background_jobs_key_check', sql`${t.idempotencyKey} IS NULL OR ${t.status} IN ('queued','running')`),
    check('background_jobs_attempt_check', sql`${t.attempt} >= 0 AND ${t.retryCount} >= 0 AND ${t.maxRetries} >= 0`),
  ],
);

/**
 * How many jobs there are of each (type, status), kept by triggers on background_jobs in the
 * same transaction as every insert, state change and delete (whoever writes: this app, a headless
 * runner). The Jobs page's counts and totals read these few rows instead of counting millions.
 */
export const jobCounts = sqliteTable(
  'job_counts',
  {
    type: text('type').notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.type, t.status] })],
);

/**
 * How many failures nobody has dismissed or retried yet (`failed`, acknowledged_at null): the red
 * badge. One row, kept by triggers on background_jobs in the same transaction as every change
 * (whoever writes), so the badge, read on every jobs.changed event, reads a number instead of
 * counting failures (~3 ms at 150,000 of them).
 */
export const unseenFailureCount = sqliteTable(
  'unseen_failure_count',
  {
    id: integer('id').primaryKey(),
    n: integer('n').notNull(),
  },
  (t) => [check('unseen_failure_count_one_row_check', sql`${t.id} = 1`)],
);

/**
 * How many photos there are in all and per state (`all`, `estimate:<status>`, `metadata:<status>`,
 * `missing`), kept by triggers on photos in the same transaction as every change: the grid's
 * totals for its state filters read one row instead of counting a million.
 */
export const photoCounts = sqliteTable('photo_counts', {
  key: text('key').primaryKey(),
  n: integer('n').notNull(),
});

/** Append-only, hash-chained ledger of job transitions and reviewer decisions. */
export const auditEvents = sqliteTable(
  'audit_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: integer('at').notNull(),
    event: text('event').notNull(),
    actor: text('actor').notNull(), // runner id, 'user', 'system'
    jobId: integer('job_id'),
    photoId: integer('photo_id'),
    data: text('data').notNull(), // JSON
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    /** HMAC of the row's id and hash with the library's audit key; set on the last row of each append. */
    mac: text('mac'),
  },
  (t) => [
    index('audit_events_job_idx').on(t.jobId),
    // Events about a photo (review decisions, removals) only: a job's transitions, two or three per
    // job, have none, and an entry for each of them cost every transition an index write.
    index('audit_events_photo_idx')
      .on(t.photoId)
      .where(sql`${t.photoId} IS NOT NULL`),
  ],
);

/**
 * The archivist's actions on photos (a review, a bulk review, a constraint added, edited or
 * deleted, a note, a scan override), one row per action, so that undo reverses exactly the last
 * one. Each change records what a row was before and after; undo restores `before` only while
 * `after` still holds.
 */
export const userActions = sqliteTable(
  'user_actions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: integer('at').notNull(),
    kind: text('kind').notNull(),
    /** What was done, e.g. "Accepted #49 (OCR)". */
    label: text('label').notNull(),
    /** What undoing it leaves, e.g. "#49 is pending again". */
    revertNote: text('revert_note').notNull(),
    undoneAt: integer('undone_at'),
  },
  (t) => [index('user_actions_open_idx').on(t.undoneAt)],
);

export const userActionChanges = sqliteTable(
  'user_action_changes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    actionId: integer('action_id')
      .notNull()
      .references(() => userActions.id, { onDelete: 'cascade' }),
    photoId: integer('photo_id')
      .notNull()
      .references(() => photos.id, { onDelete: 'cascade' }),
    /** null: a change to the photo row itself (notes, scan override). */
    evidenceId: integer('evidence_id'),
    before: text('before'), // JSON; null: the evidence row did not exist
    after: text('after').notNull(), // JSON
  },
  (t) => [
    index('user_action_changes_photo_idx').on(t.photoId, t.actionId),
    index('user_action_changes_action_idx').on(t.actionId),
  ],
);

/**
 * The ledger's signed head: its last event and how many there are, with an HMAC under the
 * library's audit key (kept outside the database). Updated in the same transaction as every
 * append, so truncating, rewriting or extending the ledger through the database alone shows.
 * One row; `mac` is NULL only until the ledger is first anchored.
 */
export const auditHead = sqliteTable(
  'audit_head',
  {
    id: integer('id').primaryKey(),
    lastId: integer('last_id').notNull(),
    count: integer('count').notNull(),
    hash: text('hash').notNull(),
    mac: text('mac'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [check('audit_head_one_row', sql`${t.id} = 1`)],
);

// ---------------------------------------------------------------- duplicates (src/main/duplicates)

/**
 * A photo's duplicate hashes (src/shared/duplicates/hash-set.ts) and how far the duplicate scan
 * has compared it. `hashes` is NULL when the image is too uniform to compare.
 */
export const photoHashes = sqliteTable(
  'photo_hashes',
  {
    photoId: integer('photo_id')
      .primaryKey()
      .references(() => photos.id, { onDelete: 'cascade' }),
    method: integer('method').notNull(),
    hashes: blob('hashes', { mode: 'buffer' }),
    /** Compared with every photo scanned at this distance or more; NULL: not yet (or its hashes changed since). */
    scannedDistance: integer('scanned_distance'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('photo_hashes_scan_idx').on(t.scannedDistance, t.photoId),
    // Only rows by an older method (to re-hash): finding them never walks the library.
    index('photo_hashes_older_idx')
      .on(t.photoId)
      .where(sql.raw(`method < ${PHOTO_HASH_METHOD}`)),
  ],
);

/** Two photos the scan found alike (`proposed`), or that the archivist said are not the same (`different`). */
export const duplicatePairs = sqliteTable(
  'duplicate_pairs',
  {
    photoLo: integer('photo_lo')
      .notNull()
      .references(() => photos.id, { onDelete: 'cascade' }),
    photoHi: integer('photo_hi')
      .notNull()
      .references(() => photos.id, { onDelete: 'cascade' }),
    /** Bits apart (NULL: never found by a scan, only decided). */
    distance: integer('distance'),
    matchedBy: text('matched_by', { enum: ['full', 'content', 'centre', 'corner'] }),
    status: text('status', { enum: ['proposed', 'different'] }).notNull(),
    foundAt: integer('found_at'),
    decidedAt: integer('decided_at'),
  },
  (t) => [
    primaryKey({ columns: [t.photoLo, t.photoHi] }),
    index('duplicate_pairs_hi_idx').on(t.photoHi),
    index('duplicate_pairs_status_idx').on(t.status),
    check('duplicate_pairs_order_check', sql`${t.photoLo} < ${t.photoHi}`),
  ],
);

/** Photos the archivist confirmed are the same photograph; evidence travels between them. */
export const duplicateGroups = sqliteTable('duplicate_groups', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  preferredPhotoId: integer('preferred_photo_id').references(() => photos.id, { onDelete: 'set null' }),
  confirmedAt: integer('confirmed_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

export const duplicateGroupMembers = sqliteTable(
  'duplicate_group_members',
  {
    photoId: integer('photo_id')
      .primaryKey()
      .references(() => photos.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => duplicateGroups.id, { onDelete: 'cascade' }),
    addedAt: integer('added_at').notNull(),
  },
  (t) => [index('duplicate_group_members_group_idx').on(t.groupId)],
);
