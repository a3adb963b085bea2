/**
 * Import: walks files and folders, identifies each image by a streamed SHA-256, and writes photo
 * rows together with their `metadata` jobs in batched transactions. Photos are referenced in
 * place and never modified. A file whose content is already in the library is a duplicate.
 *
 * Each file is hashed here, once: the stamp taken while hashing (file-stamps.ts) lets its metadata
 * job's worker trust the recorded hash instead of hashing the same bytes again.
 *
 * An interrupted import (quit, crash, cancel) leaves a consistent library: a row exists only with
 * its full hash and its job. Running the same import again adds just what is missing.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ImportProgress, ScanPolicy } from '../../shared/contract';
import { hasSupportedExtension, isHeifName } from '../../shared/image-formats';
import { CallFailure } from '../../shared/result';
import { sha256File } from '../../shared/node/hash';
import { MAX_FILE_BYTES } from '../../shared/jobs/types/metadata';
import type { LibraryDb } from '../db/open';
import type { JobService } from '../jobs/service';
import type { Logger } from '../logger';
import type { NewPhoto, PhotoRepository } from '../catalogue/photo-repository';
import { describeMachineryError, isMachineryError } from '../jobs/machinery';
import { ImportOutcomes, type AddedRange } from './import-outcome';
import type { FileLocations } from './file-locations';
import { walkImport, type SkipKind } from '../../shared/node/file-walk';
import { SETTLED_AFTER_MS, type FileStamp } from '../../shared/jobs/file-stamp';
import type { FileStamps } from './file-stamps';
import { askBeforeHugeImports, DEFAULT_IMPORT_LIMITS, refusePseudoRoots, type ImportLimits } from './import-guards';

const HASH_CONCURRENCY = 4;
const BATCH_SIZE = 500;
const BATCH_MAX_WAIT_MS = 250;
/**
 * The first batches wait less (20, 40, 80, 160 ms, then BATCH_MAX_WAIT_MS): the workers are idle
 * until the first rows land, and the archivist sees the first photos at once.
 */
const FIRST_BATCH_WAIT_MS = 20;
const PROGRESS_EVERY_MS = 200;
const MAX_LISTED_ERRORS = 50;
/** Skipped files named in the progress (all are counted; the summary gives counts by reason). */
const MAX_LISTED_SKIPS = 500;
/** Files not added as second copies of a photo already here, named with the file kept. */
const MAX_LISTED_DUPLICATES = 500;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const SKIP_SUMMARY: Record<SkipKind, (n: number) => string> = {
  heic: (n) => `${n} HEIC/HEIF — convert to JPEG or TIFF`,
  'not-image': (n) => plural(n, 'not an image', 'not images'),
  special: (n) => plural(n, 'not a regular file', 'not regular files'),
  'link-outside': (n) => plural(n, 'link out of the folder', 'links out of the folder'),
  'link-folder': (n) => plural(n, 'link to a folder', 'links to folders'),
  'link-broken': (n) => plural(n, 'broken link', 'broken links'),
  system: (n) => plural(n, 'system folder', 'system folders'),
};

const HEIC_REASON = 'HEIC/HEIF: this build cannot decode HEVC-coded images — convert it to JPEG or TIFF and import that';

export interface ImporterDeps {
  db: LibraryDb;
  photos: PhotoRepository;
  jobs: JobService;
  locations: FileLocations;
  /** Where the stamps taken while hashing wait for their metadata jobs. */
  stamps: FileStamps;
  log: Logger;
  onProgress(p: ImportProgress): void;
  onPhotosAdded(ids: number[]): void;
}

export class Importer {
  private current: ImportRun | null = null;
  private nextId = 1;
  private readonly outcomes: ImportOutcomes;
  /** Mutable for tests. */
  readonly limits: ImportLimits = { ...DEFAULT_IMPORT_LIMITS };
  /** How old a file's times must be for its stamp to be kept (file-stamp.ts); mutable for tests. */
  stampSettledAfterMs = SETTLED_AFTER_MS;

  constructor(private readonly deps: ImporterDeps) {
    this.outcomes = new ImportOutcomes(deps.db.sqlite);
  }

  /**
   * The checks a user-started import goes through first: pseudo file systems are refused, and
   * an import of a whole disk or of a huge folder needs `confirmed` (else `needs_confirmation`).
   */
  async check(paths: string[], confirmed: boolean): Promise<void> {
    const roots = paths.map((p) => path.resolve(p));
    await refusePseudoRoots(roots);
    if (!confirmed) await askBeforeHugeImports(roots, this.limits);
  }

  /** `scanPolicy`: what the archivist said about these files (scans or camera originals), kept with each photo. */
  start(paths: string[], scanPolicy: ScanPolicy = 'detect'): ImportProgress {
    if (this.current?.progress.status === 'running') {
      throw new CallFailure('conflict', 'An import is already running; wait for it or cancel it first');
    }
    const roots = paths.map((p) => path.resolve(p));
    const missing = roots.filter((r) => !fs.existsSync(r));
    if (missing.length === roots.length) {
      throw new CallFailure(
        'not_found',
        `Nothing to import: ${missing.map((m) => `"${m}"`).join(', ')} does not exist on this computer`,
      );
    }
    const deps = { ...this.deps, settledAfterMs: this.stampSettledAfterMs };
    const run = new ImportRun(this.nextId++, roots, new Set(missing), scanPolicy, deps, this.outcomes);
    this.current = run;
    void run.execute();
    return run.snapshot();
  }

  status(): ImportProgress | null {
    return this.current?.snapshot() ?? null;
  }

  cancel(id: number): ImportProgress {
    if (!this.current || this.current.progress.id !== id) throw new CallFailure('not_found', `There is no import ${id}`);
    this.current.cancel();
    return this.current.snapshot();
  }

  /** Stops a running import (app shutdown); what was written stays consistent. */
  async close(): Promise<void> {
    if (this.current?.progress.status === 'running') {
      this.current.cancel();
      await this.current.done;
    }
  }
}

class ImportRun {
  readonly progress: ImportProgress;
  private cancelled = false;
  /** Set when the library could not be written: the import ends `failed` with this message. */
  private stopWith: string | null = null;
  private batch: (NewPhoto & { stamp: FileStamp | null })[] = [];
  private batchTimer?: NodeJS.Timeout;
  private flushes = 0;
  private lastProgress = 0;
  /** The photos this import added (see import-outcome.ts); null until the first is added. */
  private added: AddedRange | null = null;
  /** Set when the run ended by itself or by cancel (not by an error): its summary is recomputed as photos are read. */
  private summarised = false;
  /** Every file the walk met under a folder root: a photo there whose file is not among them is missing. */
  private readonly walked = new Set<string>();
  private resolveDone!: () => void;
  readonly done = new Promise<void>((r) => (this.resolveDone = r));

  constructor(
    id: number,
    roots: string[],
    /** Paths that did not exist when the import started: reported as such, never as "disappeared". */
    private readonly missingRoots: ReadonlySet<string>,
    private readonly scanPolicy: ScanPolicy,
    private readonly deps: ImporterDeps & { settledAfterMs: number },
    private readonly outcomes: ImportOutcomes,
  ) {
    this.progress = {
      id,
      status: 'running',
      roots,
      found: 0,
      hashed: 0,
      added: 0,
      duplicates: 0,
      skipped: 0,
      failed: 0,
      relinked: 0,
      markedMissing: 0,
      reading: 0,
      unreadable: 0,
      errors: [],
      skippedFiles: [],
      unreadableFiles: [],
      duplicateFiles: [],
      startedAt: Date.now(),
      finishedAt: null,
      message: null,
    };
  }

  private readonly skipCounts = new Map<SkipKind, number>();

  /**
   * The progress with what became of the photos added so far: a broken file is hashed and added
   * like any other, and only its metadata job finds it unreadable; the summary says so.
   */
  snapshot(): ImportProgress {
    const p = this.progress;
    const outcome = this.outcomes.of(this.added, MAX_LISTED_ERRORS);
    const out: ImportProgress = {
      ...p,
      roots: [...p.roots],
      reading: outcome.reading,
      unreadable: outcome.unreadable,
      errors: [...p.errors],
      skippedFiles: [...p.skippedFiles],
      unreadableFiles: outcome.errors,
      duplicateFiles: [...p.duplicateFiles],
    };
    if (this.summarised) out.message = this.summary(out);
    return out;
  }

  cancel(): void {
    this.cancelled = true;
  }

  async execute(): Promise<void> {
    try {
      const inFlight = new Set<Promise<void>>();
      for (const root of this.progress.roots) {
        if (this.missingRoots.has(root)) {
          this.notFound(root);
          continue;
        }
        for await (const item of walkImport(root)) {
          if (this.cancelled) break;
          if (item.kind === 'error') {
            this.fail(item.path, item.error);
            continue;
          }
          this.walked.add(item.path);
          if (item.kind === 'skip') {
            this.skip(item.path, item.skip, item.reason);
            continue;
          }
          // The name decides whether a file is considered (a link's own name, not its target's).
          const { path: file, name } = item;
          if (!hasSupportedExtension(name)) {
            if (isHeifName(name)) this.skip(file, 'heic', HEIC_REASON);
            else this.skip(file, 'not-image', `not an image file type (${path.extname(name).toLowerCase() || 'no extension'})`);
            continue;
          }
          this.progress.found++;
          const task = this.hashOne(file, name).finally(() => inFlight.delete(task));
          inFlight.add(task);
          if (inFlight.size >= HASH_CONCURRENCY) await Promise.race(inFlight);
        }
        if (this.cancelled) break;
      }
      await Promise.all(inFlight);
      this.flush();
      if (!this.cancelled) this.markMissing();
      this.progress.status = this.stopWith ? 'failed' : this.cancelled ? 'cancelled' : 'done';
      this.progress.message = this.stopWith;
      this.summarised = !this.stopWith;
    } catch (err) {
      this.progress.status = 'failed';
      this.progress.message = `Import stopped: ${(err as Error).message}. What was imported so far is kept; run the import again to continue.`;
      this.deps.log.error(`import failed: ${(err as Error).stack}`);
    } finally {
      clearTimeout(this.batchTimer);
      this.progress.finishedAt = Date.now();
      this.report(true);
      this.resolveDone();
    }
  }

  private async hashOne(file: string, name: string): Promise<void> {
    try {
      // Refused by its size before it is read: the metadata job would refuse it after the hash anyway.
      const { sha256, size, mtimeMs, stamp } = await sha256File(file, {
        maxBytes: MAX_FILE_BYTES,
        settledAfterMs: this.deps.settledAfterMs,
      });
      this.progress.hashed++;
      this.batch.push({
        sha256,
        size,
        path: file,
        filename: name,
        mtimeMs: Math.round(mtimeMs),
        scanPolicy: this.scanPolicy,
        stamp,
      });
      if (this.batch.length >= BATCH_SIZE) this.flush();
      else if (!this.batchTimer) {
        const wait = Math.min(BATCH_MAX_WAIT_MS, FIRST_BATCH_WAIT_MS * 2 ** this.flushes);
        this.batchTimer = setTimeout(() => this.flush(), wait);
      }
    } catch (err) {
      this.fail(file, err);
    }
    this.report();
  }

  /** One transaction: the photo rows and their metadata jobs land together or not at all. */
  private flush(): void {
    clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    const batch = this.batch.splice(0);
    if (!batch.length) return;
    this.flushes++;
    const added: number[] = [];
    const relinked: number[] = [];
    let duplicates = 0;
    const copies: ImportProgress['duplicateFiles'] = [];
    const toRead: { id: number; p: (typeof batch)[number] }[] = [];
    try {
      this.deps.db.immediate(() => {
        const now = Date.now();
        /** Content met in this batch, and the file it was added (or kept) from. */
        const seen = new Map<string, string>();
        for (const p of batch) {
          const id = seen.has(p.sha256) ? null : this.deps.photos.insert(p, now);
          if (id != null) {
            added.push(id);
            toRead.push({ id, p });
          } else {
            // The content of a photo already here: a moved file relinks its missing photo.
            const moved = seen.has(p.sha256) ? null : this.deps.locations.relinkIfMissing(p, now);
            if (moved) {
              relinked.push(moved.id);
              if (moved.reread) toRead.push({ id: moved.id, p });
            } else {
              // A second copy is named with the file kept; the photo's own file imported again is not a copy.
              const keptPath = seen.get(p.sha256) ?? this.deps.photos.pathOfContent(p.sha256) ?? '';
              duplicates++;
              if (keptPath !== p.path) copies.push({ path: p.path, keptPath });
              if (!seen.has(p.sha256)) seen.set(p.sha256, keptPath);
            }
          }
          if (!seen.has(p.sha256)) seen.set(p.sha256, p.path);
        }
        this.deps.jobs.enqueueMany(
          toRead.map(({ id }) => ({ type: 'metadata', payload: { photoId: id } })),
          'import',
        );
      });
    } catch (err) {
      // Nothing of this batch was written. A full disk or a library locked by another program
      // stops the import with a clear message; what was added before stays, and running the
      // import again adds the rest.
      const reason = isMachineryError(err) ? describeMachineryError(err) : ((err as Error)?.message ?? String(err));
      this.stopWith = `Import stopped: ${reason}. ${this.progress.added} photos were added before that; run the import again to add the rest.`;
      this.cancelled = true;
      for (const p of batch) this.fail(p.path, new Error(`not added: ${reason}`));
      return;
    }
    // Committed: the jobs may now load, each with the stamp taken while its file was hashed.
    for (const { id, p } of toRead) if (p.stamp) this.deps.stamps.remember(id, p.sha256, p.stamp);
    this.progress.duplicates += duplicates;
    const room = MAX_LISTED_DUPLICATES - this.progress.duplicateFiles.length;
    if (room > 0) this.progress.duplicateFiles.push(...copies.slice(0, room));
    this.progress.added += added.length;
    this.progress.relinked += relinked.length;
    if (relinked.length) this.deps.onPhotosAdded(relinked);
    if (added.length) this.added = { first: this.added?.first ?? added[0], last: added[added.length - 1] };
    if (added.length) this.deps.onPhotosAdded(added);
    this.report(true); // "added" must not lag behind the photos the grid already shows
  }

  /** A folder imported again: its photos whose files are gone from it are marked missing. */
  private markMissing(): void {
    for (const root of this.progress.roots) {
      if (this.missingRoots.has(root) || !fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) continue;
      const gone = this.deps.locations.markMissingUnder(root, this.walked);
      this.progress.markedMissing += gone.length;
      if (gone.length) this.deps.onPhotosAdded(gone);
    }
  }

  private notFound(root: string): void {
    this.progress.failed++;
    this.progress.errors.push({ path: root, message: 'does not exist on this computer' });
  }

  private skip(file: string, kind: SkipKind, reason: string): void {
    this.progress.skipped++;
    this.skipCounts.set(kind, (this.skipCounts.get(kind) ?? 0) + 1);
    if (this.progress.skippedFiles.length < MAX_LISTED_SKIPS) this.progress.skippedFiles.push({ path: file, reason });
    this.report();
  }

  private fail(file: string, err: unknown): void {
    this.progress.failed++;
    if (this.progress.errors.length < MAX_LISTED_ERRORS) {
      const e = err as NodeJS.ErrnoException;
      const reason =
        e?.code === 'EACCES' || e?.code === 'EPERM'
          ? 'permission denied'
          : e?.code === 'ENOENT'
            ? 'the file disappeared during the import'
            : (e?.message ?? String(err));
      this.progress.errors.push({ path: file, message: reason });
    }
  }

  private report(force = false): void {
    const now = Date.now();
    if (!force && now - this.lastProgress < PROGRESS_EVERY_MS) return;
    this.lastProgress = now;
    this.deps.onProgress(this.snapshot());
  }

  /** One sentence, true of this import alone: a photo added but unreadable counts as not read. */
  private summary(p: ImportProgress): string {
    const n = (x: number) => x.toLocaleString('en-US');
    const parts = [`${n(p.added)} added${p.unreadable ? ` (${n(p.unreadable)} of them unreadable)` : ''}`];
    if (p.duplicates) parts.push(`${n(p.duplicates)} already in the library`);
    if (p.skipped)
      parts.push(`${n(p.skipped)} skipped (${[...this.skipCounts].map(([kind, k]) => SKIP_SUMMARY[kind](k)).join('; ')})`);
    if (p.relinked) parts.push(`${n(p.relinked)} found at a new place (relinked)`);
    if (p.markedMissing) parts.push(`${n(p.markedMissing)} no longer there (marked missing)`);
    if (p.failed) parts.push(`${n(p.failed)} could not be imported`);
    const reading = p.reading ? ` Still reading ${n(p.reading)}…` : '';
    return `${this.cancelled ? 'Import cancelled' : 'Import finished'}: ${parts.join(', ')}.${reading}`;
  }
}
