import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import type { PhotoDetails } from '../../src/shared/contract';
import { openTestCore, tempDir, waitFor, waitForStatus } from '../support/core';
import { renderCaption } from '../support/caption-images';
import { startAiStub } from '../support/ai-stub-server';

let core: Core | undefined;
let closeStub: (() => Promise<void>) | undefined;
afterEach(async () => {
  await core?.close();
  await closeStub?.();
  core = undefined;
  closeStub = undefined;
});

async function importOne(c: Core, file: string): Promise<number> {
  c.importer.start([file]);
  const photo = await waitFor(() => c.photos.list({ sort: 'imported', filter: 'all', limit: 1 }).items[0], 30_000, 'photo row');
  await waitFor(() => c.photos.get(photo.id)?.metadata_status !== 'pending', 60_000, 'metadata');
  return photo.id;
}

async function runJob(c: Core, type: 'ocr' | 'ai_analysis', photoId: number) {
  const { job } = c.jobs.enqueue({ type, payload: { photoId } });
  return waitForStatus(c, job.id, ['success', 'failed', 'cancelled'], 120_000);
}

describe('what OCR read, shown to the archivist', () => {
  it('keeps a reading without a date, line by line with confidence and box, and photos.get returns it', async () => {
    const dir = tempDir('circa-ocr-');
    const file = path.join(dir, 'undated.png');
    fs.writeFileSync(file, await renderCaption('The old mill by the river', { size: 48 }));
    core = openTestCore();
    const photoId = await importOne(core, file);
    const before = await core.dispatch('photos.get', { id: photoId });
    expect(before.ok && (before.value as PhotoDetails).ocr).toBeNull();
    const job = await runJob(core, 'ocr', photoId);
    expect(job.status).toBe('success');
    expect(core.evidenceService.list(photoId, false).items.filter((i) => i.source === 'ocr')).toEqual([]);

    const got = await core.dispatch('photos.get', { id: photoId });
    if (!got.ok) throw new Error(got.error.message);
    const photo = got.value as PhotoDetails;
    const reading = photo.ocr!;
    expect(reading).toMatchObject({ jobId: job.id, width: photo.width, height: photo.height });
    expect(reading.text).toMatch(/old mill/i);
    expect(reading.confidence).toBeGreaterThan(50);
    expect(reading.lines).toHaveLength(1);
    const [line] = reading.lines;
    expect(line.text).toMatch(/river/);
    expect(line.confidence).toBeGreaterThan(50);
    // The box lies inside the image and around the centred caption.
    expect(line.bbox.x0).toBeGreaterThanOrEqual(0);
    expect(line.bbox.x1).toBeLessThanOrEqual(reading.width);
    expect(line.bbox.y0).toBeLessThan(reading.height / 2);
    expect(line.bbox.y1).toBeGreaterThan(reading.height / 2);
  });

  it('turns a year OCR read with a double quote ("Summer "62") into evidence that says what was read', async () => {
    const dir = tempDir('circa-ocr-');
    const file = path.join(dir, 'summer.png');
    // Straight double quote printed: what Tesseract makes of ’ on many labels.
    fs.writeFileSync(file, await renderCaption('Summer "62 at the lake', { size: 48 }));
    core = openTestCore();
    const photoId = await importOne(core, file);
    expect((await runJob(core, 'ocr', photoId)).status).toBe('success');
    const ocr = core.evidenceService.list(photoId, false).items.find((i) => i.source === 'ocr')!;
    expect(ocr).toMatchObject({ earliest: 19620601, latest: 19620831 });
    expect(ocr.details).toMatchObject({ line: expect.stringMatching(/Summer "62/) });
    expect(String(ocr.details!.reason)).toContain('OCR read');
  });
});

describe('evidence from OCR, AI and the archivist', () => {
  it('reads a printed caption, turns its date into evidence, and explains the estimate once accepted', async () => {
    const dir = tempDir('circa-ocr-');
    const file = path.join(dir, 'caption.png');
    fs.writeFileSync(file, await renderCaption('Grandma and Joe, Xmas 1942', { size: 48 }));
    core = openTestCore();
    const photoId = await importOne(core, file);
    const job = await runJob(core, 'ocr', photoId);
    expect(job.status).toBe('success');
    expect(core.photos.get(photoId)!.ocr_text).toMatch(/1942/);

    const { items, estimate } = core.evidenceService.list(photoId, false);
    const ocr = items.find((i) => i.source === 'ocr')!;
    expect(ocr).toMatchObject({ kind: 'estimate', earliest: 19421220, latest: 19421231, reviewStatus: 'pending', jobId: job.id });
    expect(estimate.status).toBe('needs_review');

    const accepted = core.evidenceService.review(ocr.id, 'accepted', 'caption on the back');
    expect(accepted.estimate.status).toBe('estimated');
    // A written date is a strong but soft estimate, so EDTF marks it approximate.
    expect(accepted.estimate.edtf).toBe('1942-12-20~/1942-12-31~');
    expect(accepted.estimate.dacs).toMatch(/1942/);
    // Full-text search finds the photo by its caption.
    expect(
      core.photos.list({ sort: 'imported', filter: 'all', search: 'xmas grandma', limit: 5 }).items.map((p) => p.id),
    ).toEqual([photoId]);

    // The archivist's own bound narrows nothing here (the caption lies inside it)…
    const notAfter = core.evidenceService.addManual(photoId, { type: 'not_after', year: 1945 }, 'uniform is wartime issue');
    expect(notAfter.estimate.status).toBe('estimated');
    // …but a second bound that cannot hold together with it is a conflict naming both.
    const notBefore = core.evidenceService.addManual(photoId, { type: 'not_before', year: 1950 }, 'car is a 1950 model');
    expect(notBefore.estimate.status).toBe('conflict');
    expect(notBefore.estimate.conflicts[0]?.evidenceIds).toEqual(expect.arrayContaining([notAfter.item.id, notBefore.item.id]));
    // Removing the mistaken constraint resolves it.
    expect(core.evidenceService.removeManual(notBefore.item.id).estimate.status).toBe('estimated');
    // The decisions are in the audit ledger, which still verifies.
    const events = core.db.sqlite.prepare('SELECT event FROM audit_events WHERE photo_id = ? ORDER BY id').pluck().all(photoId);
    expect(events).toEqual([
      'evidence_reviewed',
      'manual_constraint_added',
      'manual_constraint_added',
      'manual_constraint_removed',
    ]);
    expect(core.ledger.verify().ok).toBe(true);
  });

  it("re-running AI after the first finished works every time and keeps every attempt in history (the seed's regression)", async () => {
    const stub = await startAiStub();
    closeStub = () => stub.close();
    const dir = tempDir('circa-ai-');
    const file = path.join(dir, 'print.png');
    fs.writeFileSync(file, await renderCaption('a photograph', { background: 'sepia' }));
    core = openTestCore();
    core.settings.update({ aiBackend: 'ollama', aiBaseUrl: stub.url, aiModel: 'llava' });
    const photoId = await importOne(core, file);

    const first = await runJob(core, 'ai_analysis', photoId);
    const second = await runJob(core, 'ai_analysis', photoId);
    const third = await runJob(core, 'ai_analysis', photoId);
    expect([first.status, second.status, third.status]).toEqual(['success', 'success', 'success']);
    expect(new Set([first.id, second.id, third.id]).size).toBe(3);

    const current = core.evidenceService.list(photoId, false).items.filter((i) => i.source === 'ai');
    const history = core.evidenceService.list(photoId, true).items.filter((i) => i.source === 'ai');
    expect(current).toHaveLength(1);
    expect(current[0].jobId).toBe(third.id);
    expect(history.map((i) => i.jobId)).toEqual([first.id, second.id, third.id]);
    expect(history.filter((i) => i.superseded)).toHaveLength(2);
  });

  it('never silently replaces evidence the archivist already reviewed', async () => {
    const stub = await startAiStub();
    closeStub = () => stub.close();
    const file = path.join(tempDir('circa-ai-'), 'print.png');
    fs.writeFileSync(file, await renderCaption('another photograph'));
    core = openTestCore();
    core.settings.update({ aiBackend: 'ollama', aiBaseUrl: stub.url, aiModel: 'llava' });
    const photoId = await importOne(core, file);
    await runJob(core, 'ai_analysis', photoId);
    const [firstAi] = core.evidenceService.list(photoId, false).items.filter((i) => i.source === 'ai');
    core.evidenceService.review(firstAi.id, 'rejected', 'model guessed from the frame');
    await runJob(core, 'ai_analysis', photoId);
    const ai = core.evidenceService.list(photoId, false).items.filter((i) => i.source === 'ai');
    // The rejected finding stays as the archivist left it, and the rerun's identical finding is not proposed again.
    expect(ai.map((i) => [i.id === firstAi.id, i.reviewStatus])).toEqual([[true, 'rejected']]);
    expect(core.evidenceService.list(photoId, false).estimate.explanation.join(' ')).toMatch(/rejected/i);
  });

  it('waits out a 429 without spending a retry', async () => {
    const stub = await startAiStub();
    closeStub = () => stub.close();
    stub.setMode('429');
    const file = path.join(tempDir('circa-ai-'), 'print.png');
    fs.writeFileSync(file, await renderCaption('rate limited'));
    core = openTestCore();
    core.settings.update({ aiBackend: 'ollama', aiBaseUrl: stub.url, aiModel: 'llava' });
    const photoId = await importOne(core, file);
    const { job } = core.jobs.enqueue({ type: 'ai_analysis', payload: { photoId } });
    const waiting = await waitFor(
      () => {
        const r = core!.jobs.queries.get(job.id)!;
        return r.status === 'queued' && r.attempt === 1 ? r : undefined;
      },
      60_000,
      'requeue after 429',
    );
    expect(waiting.retry_count).toBe(0);
    expect(waiting.run_after - Date.now()).toBeGreaterThan(3_000); // Retry-After: 7
    expect(waiting.error_message).toMatch(/429|rate|Retry/i);
  });
});

describe('reruns and reviewed evidence', () => {
  it('does not propose again a date the archivist already accepted, and keeps review notes', async () => {
    const file = path.join(tempDir('circa-ocr-'), 'caption.png');
    fs.writeFileSync(file, await renderCaption('Summer 1961 at the lake', { size: 48 }));
    core = openTestCore();
    const photoId = await importOne(core, file);
    await runJob(core, 'ocr', photoId);
    const [ocr] = core.evidenceService.list(photoId, false).items.filter((i) => i.source === 'ocr');
    core.evidenceService.review(ocr.id, 'accepted', 'written on the back');
    // A later decision without a note keeps the note.
    expect(core.evidenceService.review(ocr.id, 'accepted', undefined).item.reviewNote).toBe('written on the back');
    await runJob(core, 'ocr', photoId);
    const after = core.evidenceService.list(photoId, false);
    expect(after.items.filter((i) => i.source === 'ocr').map((i) => i.id)).toEqual([ocr.id]);
    expect(after.estimate.status).toBe('estimated');
  });
});
