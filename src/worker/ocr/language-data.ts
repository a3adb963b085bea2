/**
 * Where Tesseract's language data comes from: each language's LSTM-only "best_int" model in its
 * own npm package (@tesseract.js-data/<code>, shipped with the app, nothing downloaded).
 * tesseract.js reads every language of a worker from one folder (`langPath`), and its other way
 * to hand data in ({ code, data } objects) breaks at initialisation in tesseract.js 7. So when a
 * library reads several languages, this process links their files into one private temporary
 * folder, removed when the process exits.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { OcrLanguage } from '../../shared/ocr-languages';

const requireFromHere = createRequire(import.meta.url);

/**
 * The folder of a language's LSTM-only model (what tesseract.js itself would fetch from its CDN
 * for the default OEM). Each package's index.js points at `4.0.0`, which also carries the legacy
 * model (about 4× larger) that the LSTM-only core never uses.
 */
export function languageDataDir(lang: OcrLanguage): string {
  return path.join(path.dirname(requireFromHere.resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int');
}

/** English's folder: the langPath of a worker that reads English alone. */
export function defaultLangPath(): string {
  return languageDataDir('eng');
}

let linkFolder: string | null = null;

/** This process's folder of links to each language's file (created on first need, removed at exit). */
function linkedFolder(): string {
  if (linkFolder) return linkFolder;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-tessdata-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  linkFolder = dir;
  return dir;
}

/** The one folder that holds every language of `langs` (English's own folder when it is English alone). */
export function langPathFor(langs: readonly OcrLanguage[]): string {
  const dirs = new Set(langs.map(languageDataDir));
  if (dirs.size === 1) return [...dirs][0];
  const dir = linkedFolder();
  for (const lang of langs) {
    const file = `${lang}.traineddata.gz`;
    const link = path.join(dir, file);
    if (fs.existsSync(link)) continue;
    const target = path.join(languageDataDir(lang), file);
    try {
      fs.symlinkSync(target, link);
    } catch {
      // Where links are not allowed (Windows without the privilege): a copy, 1–3 MB a language.
      fs.copyFileSync(target, link);
    }
  }
  return dir;
}

/** TessdataManager index of the LSTM model, which the LSTM-only core needs. */
const TESSDATA_LSTM = 17;
const checkedLangData = new Set<string>();

/**
 * Returns a reason when `${langPath}/${lang}.traineddata.gz` is missing, not gzip, or not a
 * traineddata file with an LSTM model; null when it looks usable. Success is cached per file.
 */
export function checkLanguageData(langPath: string, lang: OcrLanguage = 'eng'): string | null {
  const file = path.join(langPath, `${lang}.traineddata.gz`);
  if (checkedLangData.has(file)) return null;
  let raw: Buffer;
  try {
    raw = fs.readFileSync(file);
  } catch (err) {
    return `Tesseract language data not found: ${file} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`;
  }
  try {
    const data = zlib.gunzipSync(raw);
    const n = data.length >= 4 ? data.readInt32LE(0) : 0;
    const lstm = n > TESSDATA_LSTM && data.length >= 4 + 8 * n ? Number(data.readBigInt64LE(4 + 8 * TESSDATA_LSTM)) : -1;
    if (n < 1 || n > 64 || lstm < 4 + 8 * n || lstm >= data.length)
      return `Tesseract language data is not an LSTM traineddata file: ${file}`;
  } catch (err) {
    return `Tesseract language data is corrupt: ${file} (${(err as Error).message})`;
  }
  // Only success is remembered, so that a fixed installation is picked up without a restart.
  checkedLangData.add(file);
  return null;
}
