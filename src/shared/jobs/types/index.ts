/**
 * Every job type the product knows, one definition each (see ../define.ts). Adding a type: its
 * definition here, a main half (its feature room's feature.ts registers it), a worker half
 * (src/worker/handlers/index.ts lists them); each list is typed so a missing half is a compile error.
 */
import type { AnyJobType, JobUi } from '../define';
import { aiAnalysisJobType } from './ai-analysis';
import { backupJobType } from './backup';
import { exportJobType } from './export';
import { locateJobType } from './locate';
import { aiTestJobType } from './ai-test';
import { constraintRebuildJobType } from './constraint-rebuild';
import { diagnosticJobTypes } from './diagnostic';
import { duplicateScanJobType } from './duplicate-scan';
import { metadataJobType } from './metadata';
import { ocrJobType } from './ocr';
import { previewJobType } from './preview';

export const productJobTypes = {
  metadata: metadataJobType,
  ocr: ocrJobType,
  ai_analysis: aiAnalysisJobType,
  constraint_rebuild: constraintRebuildJobType,
  backup: backupJobType,
  export: exportJobType,
  duplicate_scan: duplicateScanJobType,
  preview: previewJobType,
  ai_test: aiTestJobType,
  locate: locateJobType,
} as const satisfies Record<string, AnyJobType>;

export type ProductJobTypes = typeof productJobTypes;
export type ProductJobTypeName = keyof ProductJobTypes;
export const PRODUCT_JOB_TYPES = Object.keys(productJobTypes) as ProductJobTypeName[];

/** Types the UI offers to re-run for photos (payload `{ photoId }`). */
export type RerunJobTypeName = {
  [K in ProductJobTypeName]: ProductJobTypes[K]['ui'] extends { rerunForPhotos: true } ? K : never;
}[ProductJobTypeName];
export const RERUN_JOB_TYPES = PRODUCT_JOB_TYPES.filter((t) => (productJobTypes[t].ui as JobUi).rerunForPhotos) as [
  RerunJobTypeName,
  ...RerunJobTypeName[],
];

/** Every definition, diagnostic ones included (the registry decides which are live). */
export const allJobTypes: Record<string, AnyJobType> = { ...productJobTypes, ...diagnosticJobTypes };

export function jobTypeLabel(type: string): string {
  return allJobTypes[type]?.ui.label ?? type;
}

/** Whether the type reads a photo's file into the catalogue (see `readsPhoto` in ../define.ts). */
export function readsPhoto(type: string): boolean {
  return allJobTypes[type]?.readsPhoto === true;
}

/** The type whose job reads a pending photo (its latest job is what a tile not read yet shows). */
export const PHOTO_READING_TYPE = PRODUCT_JOB_TYPES.find(readsPhoto) as ProductJobTypeName;

/** The type's name inside a sentence ("Re-run metadata", "the OCR job"). */
export function jobTypeInSentence(type: string): string {
  const ui = allJobTypes[type]?.ui;
  return ui?.inSentence ?? ui?.label ?? type;
}

export { diagnosticJobTypes, type DiagnosticJobTypes, type DiagnosticJobTypeName } from './diagnostic';
