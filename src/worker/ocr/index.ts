export { createOcrEngine, defaultLangPath, type OcrEngineOptions } from './engine';
export { prepareOcrImage, ocrScaleFor, OCR_MAX_LONG_SIDE, OCR_MIN_SHORT_SIDE } from './preprocess';
export * from './types';
