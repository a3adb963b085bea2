/**
 * The languages OCR can read, each shipped offline as Tesseract data (@tesseract.js-data/<code>).
 * A library chooses which of them its OCR reads (Settings); English alone by default. Dates in
 * every one of these languages are recognised in the text whatever is chosen here: the choice
 * only decides which letters Tesseract expects (é, ë, ß, ñ…).
 */
import { z } from 'zod';

export const OCR_LANGUAGES = ['eng', 'fra', 'deu', 'spa', 'ita', 'nld', 'por'] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];

export const OCR_LANGUAGE_NAMES: Record<OcrLanguage, string> = {
  eng: 'English',
  fra: 'French',
  deu: 'German',
  spa: 'Spanish',
  ita: 'Italian',
  nld: 'Dutch',
  por: 'Portuguese',
};

export const DEFAULT_OCR_LANGUAGES: OcrLanguage[] = ['eng'];

/** At least one language, each once; the first is Tesseract's main language. */
export const ocrLanguagesSchema = z
  .array(z.enum(OCR_LANGUAGES))
  .min(1, 'choose at least one language for OCR')
  .max(OCR_LANGUAGES.length)
  .refine((langs) => new Set(langs).size === langs.length, 'each language once');
