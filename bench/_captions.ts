/**
 * The caption images of the OCR benchmarks (the test set from test/support/caption-set.ts) and
 * the tables that report how well a reader did on them, per kind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { captionSet, type CaptionCase } from '../test/support/caption-set';
import { scoreReading, summariseByKind, type CaptionScore, type KindSummary } from '../test/support/caption-score';
import { round } from './_util';

export interface CaptionFiles {
  cases: CaptionCase[];
  /** File name (no folder) → case. */
  byFile: Map<string, CaptionCase>;
  files: string[];
}

/** Renders the first `n` cases of the set into `dir`, kinds interleaved so any n covers every kind. */
export async function writeCaptions(dir: string, n: number): Promise<CaptionFiles> {
  const all = captionSet(Math.max(10, Math.ceil(n / 10)));
  const perKind = new Map<string, CaptionCase[]>();
  for (const c of all) perKind.set(c.kind, [...(perKind.get(c.kind) ?? []), c]);
  const interleaved: CaptionCase[] = [];
  for (let i = 0; interleaved.length < all.length; i++)
    for (const list of perKind.values()) if (list[i]) interleaved.push(list[i]);
  const cases = interleaved.slice(0, n);
  const byFile = new Map<string, CaptionCase>();
  const files: string[] = [];
  for (const c of cases) {
    const name = `${c.id}.${c.ext}`;
    fs.writeFileSync(path.join(dir, name), await c.render());
    byFile.set(name, c);
    files.push(path.join(dir, name));
  }
  return { cases, byFile, files };
}

/** Scores readings (file name → text; a missing entry is a failure, scored as an empty reading). */
export function scoreAll(set: CaptionFiles, texts: Map<string, string>): { c: CaptionCase; s: CaptionScore }[] {
  return [...set.byFile].map(([name, c]) => ({ c, s: scoreReading(c, texts.get(name) ?? '') }));
}

export function kindRows(label: string, summaries: KindSummary[]): string[] {
  return summaries.map(
    (k) =>
      `${label.padEnd(10)} ${k.kind.padEnd(13)} ${String(k.images).padStart(3)}  ${round(k.medianAccuracy, 3).toFixed(3)}   ` +
      `${`${k.recovered}/${k.dated}`.padStart(6)} ${`(${Math.round((100 * k.recovered) / Math.max(1, k.dated))} %)`.padStart(7)}   ` +
      `${`${k.falseDates}/${k.undated}`.padStart(5)}   ${k.wrongOnDated}`,
  );
}

export const KIND_HEADER = `${'reader'.padEnd(10)} ${'kind'.padEnd(13)} img  char acc  dates recovered   false   wrong date on dated`;

export { summariseByKind };
