/**
 * The worker's half of `ai_test`: the request an analysis makes, with a small generated picture
 * (a toned print with a darker figure), timed. Whatever goes wrong is reported as the analysis
 * would report it (unreachable, rejected key, unknown model, a reply that is not the schema).
 */
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { AiTestJobType } from '../../shared/jobs/types/ai-test';
import { analyzeImage } from '../ai';
import type { RunHandler } from './types';

async function testPicture(): Promise<Buffer> {
  const figure = await sharp({ create: { width: 70, height: 150, channels: 3, background: '#4a3a2c' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 320, height: 240, channels: 3, background: '#b49a78' } })
    .composite([{ input: figure, left: 125, top: 60 }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

export const aiTestHandler: RunHandler<AiTestJobType> = async (input, ctx) => {
  const file = path.join(os.tmpdir(), `circa-ai-test-${randomBytes(6).toString('hex')}.jpg`);
  await writeFile(file, await testPicture());
  try {
    ctx.progress(0.1, 'Asking the backend');
    const started = Date.now();
    const a = await analyzeImage(file, input.backend, { signal: ctx.signal, timeoutMs: input.timeoutMs });
    return {
      backend: a.backend,
      model: a.model,
      elapsedMs: Date.now() - started,
      earliestYear: a.earliestYear,
      latestYear: a.latestYear,
      summary: a.summary,
    };
  } finally {
    await rm(file, { force: true });
  }
};
