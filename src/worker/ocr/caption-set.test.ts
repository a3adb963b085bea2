/**
 * The caption test set (test/support/caption-set.ts: 100 images, 10 kinds) read by the engine as
 * an OCR job reads it, then scored: the targets of the engine are dates from ≥ 95 % of the printed
 * captions that carry one and no false date on any caption that carries none.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captionSet, writeCaptionSet, type CaptionCase } from '../../../test/support/caption-set';
import { scoreReading, summariseByKind, REFERENCE_YEAR, type CaptionScore } from '../../../test/support/caption-score';
import { extractDates } from '../../shared/dating';
import { createOcrEngine } from './index';

const set = captionSet();
let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'circa-caption-set-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('the caption test set', () => {
  it('has at least 100 images of every kind, and its true texts carry dates exactly where they should', () => {
    expect(set.length).toBeGreaterThanOrEqual(100);
    expect(new Set(set.map((c) => c.id)).size).toBe(set.length);
    for (const c of set) expect(extractDates(c.text, { referenceYear: REFERENCE_YEAR }).length > 0, c.id).toBe(c.dated);
    const kinds = new Set(set.map((c) => c.kind));
    for (const kind of kinds) {
      const of = set.filter((c) => c.kind === kind);
      expect(of.some((c) => c.dated) && of.some((c) => !c.dated), kind).toBe(true);
    }
  });

  it(
    'is read with dates from ≥ 95 % of the printed captions that carry one, and no false date',
    { timeout: 1_200_000 },
    async () => {
      const files = await writeCaptionSet(dir, set);
      const engine = createOcrEngine();
      const rows: { c: CaptionCase; s: CaptionScore; read: string }[] = [];
      try {
        for (const c of set) {
          const r = await engine.recognize(files.get(c)!);
          rows.push({ c, s: scoreReading(c, r.text), read: r.text });
        }
      } finally {
        await engine.terminate();
      }
      const summary = summariseByKind(rows);
      const printed = summary.at(-1)!;
      const missed = rows
        .filter((r) => r.c.printed && r.c.dated && !r.s.recovered)
        .map((r) => `${r.c.id}: ${JSON.stringify(r.read)}`);
      const falseDates = rows.filter((r) => !r.c.dated && r.s.wrongDates > 0).map((r) => `${r.c.id}: ${JSON.stringify(r.read)}`);
      expect(printed.dated).toBeGreaterThanOrEqual(70);
      expect(printed.recovered / printed.dated, `missed: ${missed.join('; ')}`).toBeGreaterThanOrEqual(0.95);
      expect(falseDates).toEqual([]);
      // Every kind of printed caption is read, not only the easy ones.
      for (const k of summary.filter((s) => s.kind !== 'handwriting' && s.kind !== 'all printed'))
        expect(k.recovered, `${k.kind}: ${k.recovered}/${k.dated}`).toBeGreaterThanOrEqual(k.dated - 2);
    },
  );
});
