/**
 * What OCR spent per kind of caption in `bench -- dating`: readings per image (bare tesseract.js
 * makes one; Circa a first reading and retries only for a cause the image shows) and each
 * image's reading time (the median over the rounds), so a change to the retry policy shows where
 * its time goes.
 */
import type { CaptionFiles } from './_captions';
import { pct, round } from './_util';

type Work = Map<string, { attempts: number; ms: number }>;

export interface KindWork {
  kind: string;
  images: number;
  circaAttempts: number;
  circaMs: number;
  bareMs: number;
}

function perImage(rounds: Work[], file: string): { attempts: number; ms: number } | null {
  const seen = rounds.map((r) => r.get(file)).filter((w) => w !== undefined);
  if (!seen.length) return null;
  return {
    attempts: seen[0].attempts,
    ms: pct(
      seen.map((w) => w.ms),
      50,
    ),
  };
}

export function workByKind(set: CaptionFiles, bare: Work[], circa: Work[]) {
  const kinds = new Map<string, { attempts: number[]; circaMs: number[]; bareMs: number[] }>();
  for (const [file, c] of set.byFile) {
    const k = kinds.get(c.kind) ?? { attempts: [], circaMs: [], bareMs: [] };
    kinds.set(c.kind, k);
    const ci = perImage(circa, file);
    const bi = perImage(bare, file);
    if (ci) {
      k.attempts.push(ci.attempts);
      k.circaMs.push(ci.ms);
    }
    if (bi) k.bareMs.push(bi.ms);
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const byKind: KindWork[] = [...kinds].map(([kind, k]) => ({
    kind,
    images: k.circaMs.length,
    circaAttempts: round(sum(k.attempts) / Math.max(1, k.attempts.length)),
    circaMs: Math.round(sum(k.circaMs) / Math.max(1, k.circaMs.length)),
    bareMs: Math.round(sum(k.bareMs) / Math.max(1, k.bareMs.length)),
  }));
  const all = [...kinds.values()];
  const attempts = all.flatMap((k) => k.attempts);
  const lines = [
    `${'kind'.padEnd(13)} img  Circa readings/image  Circa ms/image  bare ms/image`,
    ...byKind.map(
      (k) =>
        `${k.kind.padEnd(13)} ${String(k.images).padStart(3)}  ${k.circaAttempts.toFixed(2).padStart(20)}  ${String(k.circaMs).padStart(14)}  ${String(k.bareMs).padStart(13)}`,
    ),
  ];
  return { byKind, lines, circaAttemptsPerImage: round(sum(attempts) / Math.max(1, attempts.length)) };
}
