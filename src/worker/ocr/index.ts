export { createOcrEngine, type OcrEngineOptions } from './engine';
export { defaultLangPath, languageDataDir } from './language-data';
export {
  initialOcrScale,
  loadOcrSource,
  renderVariant,
  toSourceBox,
  OCR_MAX_LONG_SIDE,
  type OcrSource,
  type OcrVariant,
} from './preprocess';
export { ALL_OCR_STEPS, type OcrSteps } from './strategy';
export * from './types';
