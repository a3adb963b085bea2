/**
 * Import: walks files and folders, identifies each image by a streamed SHA-256, and writes photo
 * rows together with their `metadata` jobs in batched transactions. Photos are referenced in
 * place and never modified. A file whose content is already in the library is a duplicate.
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
import type { LibraryDb } from '../db/open';
import type { JobService } from '../jobs/service';
import type { Logger } from '../jobs/runner/logger';
import type { NewPhoto, PhotoRepository } from './photo-repository';
import { describeMachineryError, isMachineryError } from '../jobs/machinery';
import { walkImport, type SkipKind } from './import-walk';
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
  log: Logger;
  onProgress(p: ImportProgress): void;
  onPhotosAdded(ids: number[]): void;
}

export class Importer {
  private current: ImportRun | null = null;
  private nextId = 1;
  /** Mutable for tests. */
  readonly limits: ImportLimits = { ...DEFAULT_IMPORT_LIMITS };

  constructor(private readonly deps: ImporterDeps) {}

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
    const run = new ImportRun(this.nextId++, roots, scanPolicy, this.deps);
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
  private batch: NewPhoto[] = [];
  private batchTimer?: NodeJS.Timeout;
  private flushes = 0;
  private lastProgress = 0;
  private resolveDone!: () => void;
  readonly done = new Promise<void>((r) => (this.resolveDone = r));

  constructor(
    id: number,
    roots: string[],
    private readonly scanPolicy: ScanPolicy,
    private readonly deps: ImporterDeps,
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
      errors: [],
      skippedFiles: [],
      startedAt: Date.now(),
      finishedAt: null,
      message: null,
    };
  }

  private readonly skipCounts = new Map<SkipKind, number>();

  snapshot(): ImportProgress {
    const p = this.progress;
    return { ...p, roots: [...p.roots], errors: [...p.errors], skippedFiles: [...p.skippedFiles] };
  }

  cancel(): void {
    this.cancelled = true;
  }

  async execute(): Promise<void> {
    try {
      const inFlight = new Set<Promise<void>>();
      for (const root of this.progress.roots) {
        for await (const item of walkImport(root)) {
          if (this.cancelled) break;
          if (item.kind === 'error') {
            this.fail(item.path, item.error);
            continue;
          }
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
      this.progress.status = this.stopWith ? 'failed' : this.cancelled ? 'cancelled' : 'done';
      this.progress.message = this.stopWith ?? this.summary();
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
      const { sha256, size, mtimeMs } = await sha256File(file);
      this.progress.hashed++;
      this.batch.push({
        sha256,
        size,
        path: file,
        filename: name,
        mtimeMs: Math.round(mtimeMs),
        scanPolicy: this.scanPolicy,
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
    let duplicates = 0;
    try {
      this.deps.db.immediate(() => {
        const now = Date.now();
        const seen = new Set<string>();
        for (const p of batch) {
          const id = seen.has(p.sha256) ? null : this.deps.photos.insert(p, now);
          seen.add(p.sha256);
          if (id == null) duplicates++;
          else added.push(id);
        }
        this.deps.jobs.enqueueMany(
          added.map((photoId) => ({ type: 'metadata', payload: { photoId } })),
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
    this.progress.duplicates += duplicates;
    this.progress.added += added.length;
    if (added.length) this.deps.onPhotosAdded(added);
    this.report(true); // "added" must not lag behind the photos the grid already shows
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

  private summary(): string {
    const p = this.progress;
    const parts = [`${p.added} added`];
    if (p.duplicates) parts.push(`${p.duplicates} already in the library`);
    if (p.skipped)
      parts.push(`${p.skipped} skipped (${[...this.skipCounts].map(([kind, n]) => SKIP_SUMMARY[kind](n)).join('; ')})`);
    if (p.failed) parts.push(`${p.failed} could not be read`);
    return `${this.cancelled ? 'Import cancelled' : 'Import finished'}: ${parts.join(', ')}.`;
  }
}
