/**
 * The estimator alone, for profiling (issue 28: the clue rule made it slower): N photos shaped as
 * the rebuild bench seeds them (an accepted scan bound, a pending caption estimate, a pending
 * visual-analysis clue, an accepted manual bound, a rejected older analysis) plus N/10 clue-only
 * photos, each estimated and serialised as a rebuild stores it. OUT=file writes every estimate, to
 * compare two versions' outputs. Bundled, so that the profile shows the shipped code:
 *   npx esbuild bench/_dating-estimate-cpu.ts --bundle --platform=node --outfile=/tmp/est.js
 *   N=20000 node --cpu-prof /tmp/est.js
 */
import fs from 'node:fs';
import { estimate } from '../src/shared/dating/estimate';
import type { EvidenceInput } from '../src/shared/dating/types';

const item = (id: number, fields: Omit<EvidenceInput, 'id'>): EvidenceInput => ({ id, ...fields });

const sets: EvidenceInput[][] = [];
const N = Number(process.env.N ?? 100_000);
for (let i = 0; i < N; i++) {
  const y = 1900 + (i % 80);
  const b = i * 5;
  sets.push([
    item(b + 1, {
      source: 'exif',
      kind: 'bound',
      earliest: null,
      latest: 20050101 + (i % 12) * 100,
      confidence: null,
      summary: 'Scanned 2005 (EXIF)',
      reviewStatus: 'accepted',
    }),
    item(b + 2, {
      source: 'ocr',
      kind: 'estimate',
      earliest: y * 10000 + 1220,
      latest: y * 10000 + 1231,
      confidence: 0.8,
      summary: `Text reads “Xmas ${y}”`,
      reviewStatus: 'pending',
    }),
    item(b + 3, {
      source: 'ai',
      kind: 'estimate',
      earliest: (y - 5) * 10000 + 101,
      latest: (y + 5) * 10000 + 1231,
      confidence: 0.3,
      summary: 'Visual analysis',
      reviewStatus: 'pending',
    }),
    item(b + 4, {
      source: 'manual',
      kind: 'bound',
      earliest: (y - 10) * 10000 + 101,
      latest: null,
      confidence: null,
      summary: `Not before ${y - 10}`,
      reviewStatus: 'accepted',
    }),
    item(b + 5, {
      source: 'ai',
      kind: 'estimate',
      earliest: (y - 20) * 10000 + 101,
      latest: (y + 20) * 10000 + 1231,
      confidence: 0.2,
      summary: 'older analysis',
      reviewStatus: 'rejected',
    }),
  ]);
}
for (let i = 0; i < N / 10; i++) {
  const b = 10_000_000 + i * 2;
  sets.push([
    item(b + 1, {
      source: 'ai',
      kind: 'estimate',
      earliest: 19400101,
      latest: 20261231,
      confidence: 0.88,
      summary: 'Visual analysis',
      reviewStatus: 'pending',
    }),
    item(b + 2, {
      source: 'exif',
      kind: 'bound',
      earliest: null,
      latest: 20100101,
      confidence: 0.3,
      summary: 'File saved',
      reviewStatus: 'pending',
    }),
  ]);
}
const out: string[] = [];
const started = process.cpuUsage();
for (const evidence of sets) out.push(JSON.stringify(estimate(evidence)));
const cpu = process.cpuUsage(started);
if (process.env.OUT) fs.writeFileSync(process.env.OUT, out.join('\n'));
const ms = (cpu.user + cpu.system) / 1000;
console.log(`${sets.length} estimates: ${ms.toFixed(0)} ms CPU (${((ms * 1000) / sets.length).toFixed(1)} µs each)`);
