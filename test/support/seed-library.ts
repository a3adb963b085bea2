/**
 * Seeds a library for the benchmarks that measure reads at scale: photos with realistic facts,
 * OCR text and notes (the full-text index is kept by its triggers), evidence and stored
 * estimates in a realistic mix of states, and finished jobs spread over the past weeks. Rows go
 * in with SQL (not through jobs: what is measured is how the library reads once it is this big);
 * the job history has no audit rows, which no read measured here touches.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';

/** A small deterministic generator, so two runs seed the same library. */
export function rng(seed = 42): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CAPTION_WORDS = (
  'family summer picnic lake christmas wedding studio portrait school class church garden beach harbour ' +
  'street market parade farm horse mother father aunt uncle grandmother brothers sisters friends holiday ' +
  'paris berlin london vienna rome station bridge river mountain village kitchen soldiers uniform bicycle car'
).split(' ');
const NAMES = ['Mary', 'John', 'Anna', 'Karl', 'Rose', 'Henri', 'Elsa', 'Tom', 'Greta', 'Louis'];

const CHUNK = 20_000;

export interface SeedFiles {
  /**
   * The photos' files are under this folder, and each photo not seeded missing has one there (a
   * hard link: a million names, a few thousand inodes). Without it the paths are under
   * /archive, which does not exist: the check when a library opens then finds every photo
   * missing and marks it so, a drive that is not plugged in rather than a library in use.
   */
  filesUnder?: string;
}

/** Seeds `n` photos (ids from 1) with evidence and estimates; returns how long it took (ms). */
export function seedPhotos(sqlite: Database.Database, n: number, seed = 42, files: SeedFiles = {}): number {
  const started = performance.now();
  const root = files.filesUnder ?? '/archive';
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const photo = sqlite.prepare(
    `INSERT INTO photos (sha256, path, filename, size, mtime_ms, format, width, height, display_width, display_height,
       thumbnail, phash, camera, exif_date, is_scan, metadata_status, metadata_error, missing, notes, ocr_text,
       estimate_status, estimate_earliest, estimate_latest, estimate, imported_at, updated_at)
     VALUES (@sha, @path, @filename, @size, @t, @format, 3000, 2000, 3000, 2000, @thumb, @phash, @camera, @exifDate,
       @isScan, @status, @error, @missing, @notes, @ocr, @estStatus, @earliest, @latest, @estimate, @t, @t)`,
  );
  const evidence = sqlite.prepare(
    `INSERT INTO evidence (photo_id, source, kind, earliest, latest, precision, confidence, summary, review_status, created_at, updated_at)
     VALUES (@photoId, @source, @kind, @earliest, @latest, 'year', @confidence, @summary, @review, @t, @t)`,
  );
  const base = Date.now() - n * 100;
  for (let start = 0; start < n; start += CHUNK) {
    sqlite
      .transaction(() => {
        for (let i = start; i < Math.min(n, start + CHUNK); i++) {
          const sha = crypto.createHash('sha256').update(`photo ${seed} ${i}`).digest('hex');
          const box = Math.floor(i / 500);
          const kind = rand();
          const filename =
            kind < 0.5
              ? `scan-${String(i).padStart(7, '0')}.tif`
              : kind < 0.8
                ? `IMG_${String(i % 10000).padStart(4, '0')}-${box}.jpg`
                : `Album ${box} page ${i % 40} - ${pick(NAMES)}.jpg`;
          const hasOcr = rand() < 0.3;
          const ocr = hasOcr
            ? `${pick(CAPTION_WORDS)} ${pick(CAPTION_WORDS)} ${pick(NAMES)} ${rand() < 0.5 ? 1880 + Math.floor(rand() * 120) : ''}`
            : '';
          const notes = rand() < 0.05 ? `${pick(CAPTION_WORDS)} ${pick(CAPTION_WORDS)}, from box ${box}` : '';
          const s = rand();
          const estStatus = s < 0.35 ? 'undated' : s < 0.75 ? 'estimated' : s < 0.95 ? 'needs_review' : 'conflict';
          const y = 1850 + Math.floor(rand() * 150);
          const open = rand();
          const earliest = estStatus === 'undated' || estStatus === 'conflict' || open < 0.1 ? null : y * 10000 + 101;
          const latest =
            estStatus === 'undated' || estStatus === 'conflict' || (open > 0.1 && open < 0.2)
              ? null
              : (y + Math.floor(rand() * 12)) * 10000 + 1231;
          const dated = earliest !== null || latest !== null;
          const failed = rand() < 0.01;
          const t = base + i * 100;
          const file = `${root}/box-${box}/${filename}`;
          // Drawn in the order they always were, so a seed gives the library it always gave.
          const size = 2_000_000 + Math.floor(rand() * 20_000_000);
          const exifDate = rand() < 0.6 ? '2009:05:30 15:56:01' : null;
          const missing = rand() < 0.005;
          // A box's files are hard links to one small file of its own (a file takes at most
          // 65,000 links on ext4).
          const original = files.filesUnder && path.join(files.filesUnder, 'originals', `box-${box}`);
          if (original && i % 500 === 0) {
            fs.mkdirSync(path.dirname(file), { recursive: true });
            fs.mkdirSync(path.dirname(original), { recursive: true });
            fs.writeFileSync(original, 'a seeded photo');
          }
          // Album pages' names can repeat within a box: those photos share a file.
          if (original && !missing && !fs.existsSync(file)) fs.linkSync(original, file);
          photo.run({
            sha,
            path: file,
            filename,
            size,
            t,
            format: filename.endsWith('.tif') ? 'tiff' : 'jpeg',
            thumb: failed ? null : `thumbnails/${sha.slice(0, 2)}/${sha}.jpg`,
            phash: failed ? null : sha.slice(0, 16),
            camera: filename.startsWith('IMG') ? 'Canon EOS 5D' : 'EPSON Perfection V850',
            exifDate,
            isScan: filename.startsWith('IMG') ? 0 : 1,
            status: failed ? 'failed' : 'ready',
            error: failed ? 'Corrupt image: premature end of JPEG image' : null,
            missing: missing ? 1 : 0,
            notes,
            ocr,
            estStatus: dated ? estStatus : estStatus === 'conflict' ? 'conflict' : 'undated',
            earliest,
            latest,
            estimate: dated ? JSON.stringify({ dacs: `circa ${y}` }) : null,
          });
          const id = i + 1;
          if (rand() < 0.7)
            evidence.run({
              photoId: id,
              source: 'exif',
              kind: 'bound',
              earliest: null,
              latest: 20090530,
              confidence: null,
              summary: 'Scanned 2009',
              review: 'pending',
              t,
            });
          if (hasOcr && dated)
            evidence.run({
              photoId: id,
              source: 'ocr',
              kind: 'estimate',
              earliest: earliest ?? latest,
              latest: latest ?? earliest,
              confidence: 0.8,
              summary: `Text reads ${y}`,
              review: rand() < 0.5 ? 'accepted' : 'pending',
              t,
            });
          if (rand() < 0.4)
            evidence.run({
              photoId: id,
              source: 'ai',
              kind: 'estimate',
              earliest: (y - 5) * 10000 + 101,
              latest: (y + 5) * 10000 + 1231,
              confidence: 0.3,
              summary: 'Visual analysis',
              review: 'pending',
              t,
            });
          if (rand() < 0.1)
            evidence.run({
              photoId: id,
              source: 'manual',
              kind: 'bound',
              earliest: y * 10000 + 101,
              latest: null,
              confidence: null,
              summary: `Not before ${y}`,
              review: 'accepted',
              t,
            });
        }
      })
      .immediate();
  }
  return performance.now() - started;
}

/**
 * Seeds `n` finished jobs of the product types over the past `days` (oldest first), as a library
 * that has run for a long time keeps them until retention prunes them. Returns the time taken (ms).
 */
export function seedFinishedJobs(sqlite: Database.Database, n: number, days = 60, seed = 7): number {
  const started = performance.now();
  const rand = rng(seed);
  const insert = sqlite.prepare(
    `INSERT INTO background_jobs (type, status, payload, subject, priority, attempt, retry_count, max_retries, run_after,
       started_at, finished_at, result_summary, error_message, created_at, updated_at)
     VALUES (@type, @status, @payload, @subject, 0, 1, 0, 3, @t, @t, @t, @summary, @error, @t, @t)`,
  );
  const now = Date.now();
  const span = days * 86_400_000;
  // Indexes and the counting triggers are set aside while the rows go in and rebuilt after: an
  // index built from sorted rows is far quicker than millions of single inserts into it. The
  // library ends up exactly as if the jobs had been written one by one.
  const aside = sqlite
    .prepare(
      `SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'background_jobs' AND type IN ('index', 'trigger') AND sql IS NOT NULL`,
    )
    .all() as { type: string; name: string; sql: string }[];
  for (const o of aside) sqlite.exec(`DROP ${o.type.toUpperCase()} ${o.name}`);
  for (let start = 0; start < n; start += CHUNK * 5) {
    sqlite
      .transaction(() => {
        for (let i = start; i < Math.min(n, start + CHUNK * 5); i++) {
          const r = rand();
          const type = r < 0.7 ? 'metadata' : r < 0.85 ? 'ocr' : r < 0.97 ? 'ai_analysis' : 'constraint_rebuild';
          const s = rand();
          const status = s < 0.95 ? 'success' : s < 0.98 ? 'failed' : 'cancelled';
          const photoId = 1 + (i % 1_000_000);
          const t = now - span + Math.floor((i / n) * span);
          insert.run({
            type,
            status,
            payload: type === 'constraint_rebuild' ? '{}' : `{"photoId":${photoId}}`,
            subject: type === 'constraint_rebuild' ? 'library' : `photo:${photoId}`,
            t,
            summary: status === 'success' ? '3000×2000 jpeg; no EXIF date' : null,
            error: status === 'failed' ? 'Corrupt image: premature end of JPEG image' : null,
          });
        }
      })
      .immediate();
  }
  sqlite
    .transaction(() => {
      for (const o of aside) sqlite.exec(o.sql);
      sqlite.exec('DELETE FROM job_counts');
      sqlite.exec(
        'INSERT INTO job_counts (type, status, n) SELECT type, status, count(*) FROM background_jobs GROUP BY type, status',
      );
      sqlite.exec(
        `UPDATE unseen_failure_count SET n = (SELECT count(*) FROM background_jobs WHERE status = 'failed' AND acknowledged_at IS NULL)`,
      );
    })
    .immediate();
  return performance.now() - started;
}
