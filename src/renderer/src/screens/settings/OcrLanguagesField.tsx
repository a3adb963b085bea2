/**
 * Settings → Text recognition: which languages OCR reads in this library. Each language's
 * Tesseract data ships with Circa; reading more languages makes OCR slower, so English alone is
 * the default. Dates are recognised in every language whatever is chosen: this decides only the
 * letters Tesseract expects (é, ë, ß, ñ…), e.g. "août" instead of "aoit".
 */
import { OCR_LANGUAGE_NAMES, OCR_LANGUAGES, type OcrLanguage } from '../../../../shared/ocr-languages';

export function OcrLanguagesField({ value, onChange }: { value: OcrLanguage[]; onChange(langs: OcrLanguage[]): void }) {
  const toggle = (lang: OcrLanguage, on: boolean) => onChange(OCR_LANGUAGES.filter((l) => (l === lang ? on : value.includes(l))));
  return (
    <fieldset>
      <legend>Text recognition (OCR)</legend>
      <div className="field" role="group" aria-labelledby="ocr-languages-label">
        <span id="ocr-languages-label">Languages</span>
        <div className="ocr-languages" data-testid="ocr-languages">
          {OCR_LANGUAGES.map((lang) => (
            <label key={lang} className="ocr-language">
              <input
                type="checkbox"
                checked={value.includes(lang)}
                // The last language chosen stays: OCR reads at least one.
                disabled={value.length === 1 && value[0] === lang}
                onChange={(e) => toggle(lang, e.target.checked)}
              />
              {OCR_LANGUAGE_NAMES[lang]}
            </label>
          ))}
        </div>
      </div>
      <p className="field-note">
        OCR reads the letters of the languages chosen (accents, ß, ñ). Each one more makes reading slower; a change applies to OCR
        run from now on.
      </p>
    </fieldset>
  );
}
