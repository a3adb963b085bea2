/**
 * One lazily created, reused tesseract.js worker per process. Works fully offline: the
 * traineddata comes from @tesseract.js-data/<lang> on disk (language-data.ts), the worker script
 * and the WASM core are resolved from node_modules, and `cacheMethod: 'none'` stops tesseract.js
 * from looking for (or writing) `./eng.traineddata` in the working directory. The worker reads
 * the languages a call asks for; a call asking for others replaces it (a library's choice
 * changes rarely, so this costs one start per change).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import Tesseract from 'tesseract.js';
import { loadOcrSource, measureInkContrast, renderVariant, toSourceBox, type Box } from './preprocess';
import { findPrintLayout } from './layout';
import { ALL_OCR_STEPS, describeAttempt, MAX_ATTEMPTS, readBest, type OcrSteps, type ReadingSummary } from './strategy';
import type { OcrEngine, OcrEngineStats, OcrLine, OcrRecognizeOptions, OcrResult } from './types';
import { DEFAULT_OCR_LANGUAGES, type OcrLanguage } from '../../shared/ocr-languages';
import { checkLanguageData, langPathFor } from './language-data';

export { checkLanguageData, defaultLangPath } from './language-data';

const requireFromHere = createRequire(import.meta.url);

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
  languages = 'eng',
): Promise<Tesseract.Worker> {
  const worker = await Tesseract.createWorker(languages, Tesseract.OEM.LSTM_ONLY, {
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
  /** Directory holding every `<lang>.traineddata.gz` read. Defaults to the packaged data (language-data.ts). */
  langPath?: string;
  /** Languages read when a call names none (English by default). */
  languages?: readonly OcrLanguage[];
  /** Optional reading steps to allow (all by default); the benchmark prices each by turning it off. */
  steps?: Partial<OcrSteps>;
}

export function abortError(message = 'OCR was aborted'): Error {
  return new DOMException(message, 'AbortError');
}

interface Live {
  worker: Tesseract.Worker;
}

/** Tesseract's name for a set of languages, the first its main one: "eng+fra". */
const langKey = (langs: readonly OcrLanguage[]) => langs.join('+');

export function createOcrEngine(opts: OcrEngineOptions = {}): OcrEngine {
  const defaultLanguages = opts.languages ?? DEFAULT_OCR_LANGUAGES;
  const steps: OcrSteps = { ...ALL_OCR_STEPS, ...opts.steps };
  const stats = { workersCreated: 0, workersTerminated: 0, recognitions: 0, passes: 0 };
  let live: Promise<Live> | null = null;
  /** The languages the live worker reads. */
  let liveLangs = '';
  /** Progress sink of the recognition currently on the worker (calls are serialised). */
  let currentProgress: ((p: number) => void) | null = null;
  let currentFail: ((err: Error) => void) | null = null;
  /** Serialises calls: one tesseract worker runs one recognition at a time. */
  let queue: Promise<unknown> = Promise.resolve();

  function createLive(langs: readonly OcrLanguage[]): Promise<Live> {
    stats.workersCreated += 1;
    liveLangs = langKey(langs);
    let initFail: ((err: Error) => void) | null = null;
    const init = new Promise<Live>((resolve, reject) => {
      initFail = reject;
      // Check the data before spawning: with missing data createWorker() never settles (so the
      // thread can't even be terminated), and with corrupt data tesseract.js 7 resolves a job
      // it already rejected, which throws an uncaught TypeError in its message listener.
      let langPath: string;
      try {
        langPath = opts.langPath ?? langPathFor(langs);
      } catch (err) {
        reject(new Error(`Tesseract language data could not be prepared: ${(err as Error).message}`));
        return;
      }
      const problem = langs.map((lang) => checkLanguageData(langPath, lang)).find((p) => p !== null);
      if (problem) {
        reject(new Error(problem));
        return;
      }
      // tesseract.js leaves createWorker() pending forever if loading the language fails (only
      // a failed core load rejects it); its errorHandler sees every failure, so use that.
      createQuietTesseractWorker(
        langPath,
        {
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
        },
        langKey(langs),
      ).then(
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
    langs: readonly OcrLanguage[],
    signal: AbortSignal | undefined,
    onPassProgress: (p: number) => void,
  ): Promise<Tesseract.Page> {
    if (signal?.aborted) return Promise.reject(abortError());
    if (!live) live = createLive(langs);
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
    const langs = o.languages?.length ? o.languages : defaultLanguages;
    if (signal?.aborted) throw abortError();
    // A worker reading other languages is replaced; the next reading starts one with these.
    if (live && liveLangs !== langKey(langs)) await killLive();
    const src = await loadOcrSource(imagePath);
    if (Math.min(src.width, src.height) < OCR_MIN_TEXT_SIDE) {
      // Nothing to read, and neither the layout nor the contrast pass can be made on so few pixels.
      onProgress?.(1);
      return { text: '', confidence: 0, lines: [], width: src.width, height: src.height, method: 'too small to hold text' };
    }
    const layout = findPrintLayout(src);
    // A print's caption band is where its caption is: its contrast is the one that decides.
    const signs = { layout, inkContrast: measureInkContrast(src, layout.captionBand ? layout.pictures : []) };
    if (signal?.aborted) throw abortError();
    let last = 0;
    const report = (f: number) => {
      if (!onProgress) return;
      const clamped = Math.min(1, Math.max(last, f));
      last = clamped;
      onProgress(clamped);
    };
    const best = await readBest(src, signs, steps, async (attempt, index) => {
      const rendered = await renderVariant(src, attempt.variant);
      if (signal?.aborted) throw abortError();
      // Progress runs over the most readings an image can take; a first good reading jumps to 1.
      const page = await recognizeOnce(rendered.png, langs, signal, (p) => report((index + p) / MAX_ATTEMPTS));
      return { ...summarisePage(page, attempt.variant.scale), page, rendered };
    });
    const result = toResult(best.reading.page, (box) => toSourceBox(box, best.attempt.variant, src), src);
    result.method = describeAttempt(best.attempt);
    result.attempts = best.attempts;
    // Decoded pixels to the oriented image's (a huge scan is decoded smaller).
    const k = src.width / src.decodedWidth;
    result.pictureAreas = layout.pictures.map((b) => ({
      x0: Math.round(b.x0 * k),
      y0: Math.round(b.y0 * k),
      x1: Math.round(b.x1 * k),
      y1: Math.round(b.y1 * k),
    }));
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

/**
 * What the strategy weighs of a page: how confident Tesseract is, how much it read, and how tall
 * its lines are in source pixels (`scale`: the rendered variant's, to map back).
 */
export function summarisePage(page: Tesseract.Page, scale = 1): ReadingSummary {
  const alnum = (page.text ?? '').replace(/[^\p{L}\p{N}]/gu, '').length;
  const heights = (page.blocks ?? [])
    .flatMap((b) => b.paragraphs ?? [])
    .flatMap((p) => p.lines ?? [])
    .filter((l) => l.text.trim())
    .map((l) => (l.bbox.y1 - l.bbox.y0) / scale)
    .sort((a, b) => a - b);
  const lineHeight = heights.length ? heights[Math.floor(heights.length / 2)] : 0;
  return { confidence: alnum ? clampConf(page.confidence) : 0, alnum, lineHeight };
}
