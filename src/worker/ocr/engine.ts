/**
 * One lazily created, reused tesseract.js worker per process. Works fully offline: the
 * traineddata comes from @tesseract.js-data/eng on disk, the worker script and the WASM core
 * are resolved from node_modules, and `cacheMethod: 'none'` stops tesseract.js from looking for
 * (or writing) `./eng.traineddata` in the working directory.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import Tesseract from 'tesseract.js';
import { loadOcrSource, renderVariant, toSourceBox, type Box } from './preprocess';
import { ALL_OCR_STEPS, describeAttempt, MAX_ATTEMPTS, readBest, type OcrSteps, type ReadingSummary } from './strategy';
import type { OcrEngine, OcrEngineStats, OcrLine, OcrRecognizeOptions, OcrResult } from './types';

const requireFromHere = createRequire(import.meta.url);

/**
 * LSTM-only "best_int" English model (what tesseract.js itself would fetch from its CDN for the
 * default OEM). The package's index.js points at `4.0.0`, which also carries the legacy model
 * (10.9 MB vs 2.9 MB) that the LSTM-only core never uses.
 */
export function defaultLangPath(): string {
  return path.join(path.dirname(requireFromHere.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/** The Node worker_threads script shipped with tesseract.js (its default, made explicit). */
function nodeWorkerPath(): string {
  return path.join(
    path.dirname(requireFromHere.resolve('tesseract.js/package.json')),
    'src',
    'worker-script',
    'node',
    'index.js',
  );
}

/** TessdataManager index of the LSTM model, which the LSTM-only core needs. */
const TESSDATA_LSTM = 17;
const checkedLangData = new Map<string, string | null>();

/**
 * Returns a reason when `${langPath}/eng.traineddata.gz` is missing, not gzip, or not a
 * traineddata file with an LSTM model; null when it looks usable. Cached per path.
 */
export function checkLanguageData(langPath: string): string | null {
  const file = path.join(langPath, 'eng.traineddata.gz');
  const cached = checkedLangData.get(file);
  if (cached !== undefined) return cached;
  let problem: string | null = null;
  let raw: Buffer | null = null;
  try {
    raw = fs.readFileSync(file);
  } catch (err) {
    problem = `Tesseract language data not found: ${file} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`;
  }
  if (raw) {
    try {
      const data = zlib.gunzipSync(raw);
      const n = data.length >= 4 ? data.readInt32LE(0) : 0;
      const lstm = n > TESSDATA_LSTM && data.length >= 4 + 8 * n ? Number(data.readBigInt64LE(4 + 8 * TESSDATA_LSTM)) : -1;
      if (n < 1 || n > 64 || lstm < 4 + 8 * n || lstm >= data.length)
        problem = `Tesseract language data is not an LSTM traineddata file: ${file}`;
    } catch (err) {
      problem = `Tesseract language data is corrupt: ${file} (${(err as Error).message})`;
    }
  }
  // Only remember success, so that a fixed installation is picked up without a restart.
  if (problem === null) checkedLangData.set(file, null);
  return problem;
}

/**
 * Tesseract writes its diagnostics ("Image too small to scale!!", "Line cannot be recognized!!",
 * resolution warnings) to stderr, which reaches the archivist's terminal. Its `debug_file`
 * parameter sends them to a file instead: /dev/null in the worker's in-memory file system.
 */
const QUIET_TESSERACT = { debug_file: '/dev/null' } as unknown as Partial<Tesseract.WorkerParams>;

/** A tesseract.js worker for the LSTM model in `langPath` that keeps Tesseract's diagnostics off the terminal. */
export async function createQuietTesseractWorker(
  langPath: string,
  handlers: Pick<Partial<Tesseract.WorkerOptions>, 'logger' | 'errorHandler'> = {},
): Promise<Tesseract.Worker> {
  const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: 'none',
    workerPath: nodeWorkerPath(),
    ...handlers,
  });
  await worker.setParameters(QUIET_TESSERACT);
  return worker;
}

/** An image whose short side is below this many pixels cannot hold a line of text: it is not read. */
export const OCR_MIN_TEXT_SIDE = 10;

export interface OcrEngineOptions {
  /** Directory holding `eng.traineddata.gz`. Defaults to @tesseract.js-data/eng's best_int model. */
  langPath?: string;
  /** Optional reading steps to allow (all by default); the benchmark prices each by turning it off. */
  steps?: Partial<OcrSteps>;
}

export function abortError(message = 'OCR was aborted'): Error {
  return new DOMException(message, 'AbortError');
}

interface Live {
  worker: Tesseract.Worker;
}

export function createOcrEngine(opts: OcrEngineOptions = {}): OcrEngine {
  const langPath = opts.langPath ?? defaultLangPath();
  const steps: OcrSteps = { ...ALL_OCR_STEPS, ...opts.steps };
  const stats = { workersCreated: 0, workersTerminated: 0, recognitions: 0, passes: 0 };
  let live: Promise<Live> | null = null;
  /** Progress sink of the recognition currently on the worker (calls are serialised). */
  let currentProgress: ((p: number) => void) | null = null;
  let currentFail: ((err: Error) => void) | null = null;
  /** Serialises calls: one tesseract worker runs one recognition at a time. */
  let queue: Promise<unknown> = Promise.resolve();

  function createLive(): Promise<Live> {
    stats.workersCreated += 1;
    let initFail: ((err: Error) => void) | null = null;
    const init = new Promise<Live>((resolve, reject) => {
      initFail = reject;
      // Check the data before spawning: with missing data createWorker() never settles (so the
      // thread can't even be terminated), and with corrupt data tesseract.js 7 resolves a job
      // it already rejected, which throws an uncaught TypeError in its message listener.
      const problem = checkLanguageData(langPath);
      if (problem) {
        reject(new Error(problem));
        return;
      }
      // tesseract.js leaves createWorker() pending forever if loading the language fails (only
      // a failed core load rejects it); its errorHandler sees every failure, so use that.
      createQuietTesseractWorker(langPath, {
        logger: (m) => {
          if (m.status === 'recognizing text' && currentProgress) currentProgress(m.progress);
        },
        // Without an errorHandler tesseract.js rethrows inside its message listener, which
        // surfaces as an uncaught exception and would kill the job process.
        errorHandler: (data: unknown) => {
          const err = new Error(`Tesseract failed: ${String(data)}`);
          if (initFail) initFail(err);
          else if (currentFail) currentFail(err);
        },
      }).then(
        (worker) => {
          initFail = null;
          // A dying worker thread never settles tesseract.js's pending promises.
          const thread = (worker as unknown as { worker?: NodeJS.EventEmitter }).worker;
          thread?.on?.('error', (e: Error) => currentFail?.(new Error(`Tesseract worker crashed: ${e.message}`)));
          resolve({ worker });
        },
        (e: unknown) => reject(new Error(`Tesseract failed to start: ${String(e)}`)),
      );
    });
    return init;
  }

  async function killLive(): Promise<void> {
    const pending = live;
    live = null;
    if (!pending) return;
    stats.workersTerminated += 1;
    try {
      const l = await pending;
      await l.worker.terminate();
    } catch {
      // a worker that never started has nothing to terminate
    }
  }

  /**
   * One reading on the tesseract worker. Progress of this pass is reported through `onPassProgress`.
   * An abort or a worker failure rejects at once and replaces the worker.
   */
  function recognizeOnce(
    png: Buffer,
    signal: AbortSignal | undefined,
    onPassProgress: (p: number) => void,
  ): Promise<Tesseract.Page> {
    if (signal?.aborted) return Promise.reject(abortError());
    if (!live) live = createLive();
    const mine = live;
    return new Promise<Tesseract.Page>((resolve, reject) => {
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        currentProgress = null;
        currentFail = null;
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const onAbort = () => {
        // Tesseract cannot cancel a recognition: kill the worker, recreate lazily next time.
        if (live === mine) void killLive();
        finish(() => reject(abortError()));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      currentProgress = (p) => {
        if (!settled) onPassProgress(p);
      };
      currentFail = (err) => {
        // The worker is in an unknown state after an error: replace it.
        if (live === mine) void killLive();
        finish(() => reject(err));
      };
      mine
        .then((l) => {
          if (settled) return undefined;
          return l.worker.recognize(png, {}, { text: true, blocks: true });
        })
        .then(
          (res) => {
            if (!res || settled) return;
            stats.passes += 1;
            finish(() => resolve(res.data));
          },
          (err: unknown) => {
            if (live === mine) void killLive();
            finish(() => reject(err instanceof Error ? err : new Error(`Tesseract failed: ${String(err)}`)));
          },
        );
    });
  }

  async function run(imagePath: string, o: OcrRecognizeOptions): Promise<OcrResult> {
    const { signal, onProgress } = o;
    if (signal?.aborted) throw abortError();
    const src = await loadOcrSource(imagePath);
    if (signal?.aborted) throw abortError();
    let last = 0;
    const report = (f: number) => {
      if (!onProgress) return;
      const clamped = Math.min(1, Math.max(last, f));
      last = clamped;
      onProgress(clamped);
    };
    if (Math.min(src.width, src.height) < OCR_MIN_TEXT_SIDE) {
      // Nothing to read, and the contrast pass cannot even be made on so few pixels.
      report(1);
      return { text: '', confidence: 0, lines: [], width: src.width, height: src.height, method: 'too small to hold text' };
    }
    const best = await readBest(src, steps, async (attempt, index) => {
      const rendered = await renderVariant(src, attempt.variant);
      if (signal?.aborted) throw abortError();
      // Progress runs over the most readings an image can take; a first good reading jumps to 1.
      const page = await recognizeOnce(rendered.png, signal, (p) => report((index + p) / MAX_ATTEMPTS));
      return { ...summarisePage(page), page, rendered };
    });
    const result = toResult(best.reading.page, (box) => toSourceBox(box, best.attempt.variant, src), src);
    result.method = describeAttempt(best.attempt);
    result.attempts = best.attempts;
    stats.recognitions += 1;
    report(1);
    return result;
  }

  return {
    recognize(imagePath, o = {}) {
      const p = queue.then(() => run(imagePath, o));
      queue = p.catch(() => undefined);
      const signal = o.signal;
      if (!signal) return p;
      // Also answer an abort at once while the call is still waiting for an earlier one.
      return new Promise<OcrResult>((resolve, reject) => {
        const onAbort = () => reject(abortError());
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
        p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
    stats(): OcrEngineStats {
      return { ...stats, workerAlive: live !== null };
    },
    async terminate() {
      await killLive();
    },
  };
}

function cleanText(s: string): string {
  return s
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+$/u, ''))
    .filter((l) => l.trim().length > 0)
    .join('\n');
}

function clampConf(c: number): number {
  return Number.isFinite(c) ? Math.min(100, Math.max(0, c)) : 0;
}

export function toResult(page: Tesseract.Page, mapBox: (b: Box) => Box, size: { width: number; height: number }): OcrResult {
  const lines: OcrLine[] = [];
  for (const block of page.blocks ?? []) {
    for (const para of block.paragraphs ?? []) {
      for (const line of para.lines ?? []) {
        const text = line.text.trim();
        if (!text) continue;
        lines.push({ text, confidence: clampConf(line.confidence), bbox: mapBox(line.bbox) });
      }
    }
  }
  const text = cleanText(page.text ?? '');
  return { text, confidence: text ? clampConf(page.confidence) : 0, lines, width: size.width, height: size.height };
}

/** What the strategy weighs of a page: how confident Tesseract is, and how much it read. */
export function summarisePage(page: Tesseract.Page): ReadingSummary {
  const alnum = (page.text ?? '').replace(/[^\p{L}\p{N}]/gu, '').length;
  return { confidence: alnum ? clampConf(page.confidence) : 0, alnum };
}
