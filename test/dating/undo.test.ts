/**
 * Undo as audited actions kept in main (issue 14 item 1) and bulk review (item 10), on a real
 * library through the contract: undo reverses exactly the last action on a photo, in order, says
 * what it reversed, refuses (changing nothing) when the evidence changed since, survives a reopen,
 * and cannot be interleaved by two windows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import type { NewEvidence } from '../../src/main/evidence/evidence-store';
import type { CallInput, CallName } from '../../src/shared/contract';
import { callCore, insertBarePhoto, openTestCore, tempDir } from '../support/core';

let core: Core;
afterEach(async () => {
  await core?.close();
});

const call = <N extends CallName>(name: N, input: CallInput<N>) => callCore(core, name, input);
async function refusal<N extends CallName>(name: N, input: CallInput<N>): Promise<string> {
  const r = await core.dispatch(name, input);
  expect(r.ok, `${name} should have been refused`).toBe(false);
  return r.ok ? '' : (expect(r.error.code).toBe('conflict'), r.error.message);
}

const photo = () => insertBarePhoto(core);
/** What a job run would have found (pending), as the job runtime records it. */
function found(photoId: number, source: 'ocr' | 'exif', items: NewEvidence[]): number[] {
  return core.db.immediate(() => core.evidence.recordFromJob(photoId, source, items, null));
}
const ocrXmas: NewEvidence = { kind: 'estimate', earliest: 19421220, latest: 19421231, confidence: 0.8, summary: 'Xmas 1942' };
const scanBound = (latest: number): NewEvidence => ({
  kind: 'bound',
  earliest: null,
  latest,
  precision: 'day',
  confidence: null,
  summary: 'Scanned',
});
const status = (id: number) => core.evidence.get(id)!.review_status;
const current = (photoId: number) => core.evidence.current(photoId).map((r) => r.id);

async function undoLast(photoId: number) {
  const { action } = await call('history.last', { photoId });
  expect(action, 'something to undo').not.toBeNull();
  return call('history.undo', { actionId: action!.id, photoId });
}

describe('undo', () => {
  it('reverses exactly the last action on the photo, in order, and says what it reversed (the issue’s sequence)', async () => {
    core = openTestCore({ runJobs: false });
    const p = photo();
    const [ocr] = found(p, 'ocr', [ocrXmas]);
    await call('evidence.review', { id: ocr, status: 'accepted' });
    expect((await undoLast(p)).message).toBe(`Undone: Accepted #${ocr} (OCR). #${ocr} is pending again.`);
    expect(status(ocr)).toBe('pending');
    await call('evidence.review', { id: ocr, status: 'rejected' });
    const a = await call('evidence.addManual', { photoId: p, constraint: { type: 'not_before', year: 1940 }, note: '' });
    const b = await call('evidence.addManual', { photoId: p, constraint: { type: 'not_after', year: 1950 }, note: '' });
    await call('evidence.removeManual', { id: b.item.id });
    expect(current(p)).not.toContain(b.item.id);

    // Deleting a constraint and undoing brings the constraint back, and nothing else changes.
    const first = await undoLast(p);
    expect(first.message).toContain(`Deleted constraint #${b.item.id}`);
    expect(first.message).toContain('It is back');
    expect(current(p)).toContain(b.item.id);
    expect(status(ocr)).toBe('rejected');
    expect(first.next?.label).toContain(`Added constraint #${b.item.id}`);

    // Then the actions before it, newest first.
    expect((await undoLast(p)).undone.label).toContain(`Added constraint #${b.item.id}`);
    expect(current(p)).not.toContain(b.item.id);
    expect((await undoLast(p)).undone.label).toContain(`Added constraint #${a.item.id}`);
    const back = await undoLast(p);
    expect(back.message).toBe(`Undone: Rejected #${ocr} (OCR). #${ocr} is pending again.`);
    expect(status(ocr)).toBe('pending');
    expect(back.next).toBeNull();
    expect(core.evidenceService.list(p, false).estimate.status).toBe('needs_review');
    expect(core.ledger.verify().ok).toBe(true);
    expect(
      core.db.sqlite.prepare(`SELECT count(*) FROM audit_events WHERE event = 'action_undone' AND photo_id = ?`).pluck().get(p),
    ).toBe(5);
  });

  it('restores an edited constraint and notes exactly', async () => {
    core = openTestCore({ runJobs: false });
    const p = photo();
    const c = await call('evidence.addManual', {
      photoId: p,
      constraint: { type: 'not_before', year: 1923, month: 6 },
      note: 'wedding',
    });
    await call('evidence.updateManual', { id: c.item.id, constraint: { type: 'not_before', year: 1925 }, note: 'later' });
    await undoLast(p);
    expect(core.evidence.get(c.item.id)).toMatchObject({
      earliest: 19230601,
      precision: 'month',
      summary: 'Not before 1923 June — wedding',
    });
    await call('photos.setNotes', { id: p, notes: 'first' });
    await call('photos.setNotes', { id: p, notes: 'second' });
    expect((await undoLast(p)).message).toBe('Undone: Edited the notes. The notes are as they were.');
    expect(core.photos.get(p)!.notes).toBe('first');
  });

  it('refuses with the reason when the evidence changed since, and changes nothing', async () => {
    core = openTestCore({ runJobs: false });
    const p = photo();
    const [ocr] = found(p, 'ocr', [ocrXmas]);
    await call('evidence.review', { id: ocr, status: 'accepted' });
    await call('evidence.review', { id: ocr, status: 'pending' }); // reset…
    found(p, 'ocr', [ocrXmas]); // …and a rerun replaced the pending finding
    const before = core.photos.get(p)!.estimate;
    const { action } = await call('history.last', { photoId: p });
    const message = await refusal('history.undo', { actionId: action!.id, photoId: p });
    expect(message).toBe(
      `Cannot undo “Reset #${ocr} (OCR)”: #${ocr} was replaced by a later run or deleted since. Nothing was undone.`,
    );
    // Never another action in its place: the accept stays, the estimate is as it was.
    expect(core.evidence.get(ocr)!.superseded_at).not.toBeNull();
    expect(core.photos.get(p)!.estimate).toBe(before);
    expect((await call('history.last', { photoId: p })).action!.id).toBe(action!.id);
  });

  it('cannot be interleaved by two windows, and keeps per-photo order', async () => {
    core = openTestCore({ runJobs: false });
    const p = photo();
    const [ocr] = found(p, 'ocr', [ocrXmas]);
    await call('evidence.review', { id: ocr, status: 'accepted' });
    const { action: seen } = await call('history.last', { photoId: p }); // both windows show this
    await call('history.undo', { actionId: seen!.id, photoId: p }); // window 1
    expect(await refusal('history.undo', { actionId: seen!.id, photoId: p })).toMatch(/already undone/); // window 2
    await call('evidence.review', { id: ocr, status: 'rejected' });
    await call('evidence.addManual', { photoId: p, constraint: { type: 'not_after', year: 1950 }, note: '' });
    const { action: older } = await call('history.last', { photoId: p });
    await call('evidence.review', { id: ocr, status: 'accepted' });
    expect(await refusal('history.undo', { actionId: older!.id, photoId: p })).toMatch(
      /a later action on this photo comes first/,
    );
    expect(status(ocr)).toBe('accepted');
  });

  it('survives closing and reopening the library', async () => {
    const libraryDir = tempDir();
    core = openTestCore({ runJobs: false, libraryDir });
    const p = photo();
    const c = await call('evidence.addManual', { photoId: p, constraint: { type: 'not_after', year: 1950 }, note: '' });
    await call('evidence.removeManual', { id: c.item.id });
    await core.close();
    core = openTestCore({ runJobs: false, libraryDir });
    expect((await undoLast(p)).undone.label).toContain(`Deleted constraint #${c.item.id}`);
    expect(current(p)).toContain(c.item.id);
  });
});

describe('bulk review', () => {
  it('accepts one kind of finding across a selection as one audited action, undone as one', async () => {
    core = openTestCore({ runJobs: false });
    const scans = [photo(), photo(), photo()];
    const bounds = scans.map((p, i) => found(p, 'exif', [scanBound(20000901 + i)])[0]);
    const [ocr] = found(scans[0], 'ocr', [ocrXmas]);
    const other = photo();
    found(other, 'exif', [scanBound(20010101)]);

    const r = await call('evidence.reviewMany', { photoIds: scans, source: 'exif', kind: 'bound', status: 'accepted' });
    expect(r).toMatchObject({ changed: 3, photos: 3, action: { kind: 'review_many', photoCount: 3 } });
    expect(r.action!.label).toBe('Accepted 3 pending EXIF bounds on 3 photos');
    expect(bounds.map(status)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(status(ocr)).toBe('pending'); // another kind of finding is left alone
    expect(core.evidence.current(other)[0].review_status).toBe('pending'); // outside the selection
    expect(core.db.sqlite.prepare(`SELECT count(*) FROM audit_events WHERE event = 'evidence_reviewed_many'`).pluck().get()).toBe(
      1,
    );

    // Each photo's undo names the bulk action; undoing it reverses all three.
    for (const p of scans) expect((await call('history.last', { photoId: p })).action!.id).toBe(r.action!.id);
    const undone = await call('history.undo', { actionId: r.action!.id });
    expect(undone.message).toBe('Undone: Accepted 3 pending EXIF bounds on 3 photos. They are pending again.');
    expect(bounds.map(status)).toEqual(['pending', 'pending', 'pending']);
    expect(undone.photoIds.sort()).toEqual([...scans].sort());
  });

  it('is refused as a whole when one photo has a later action', async () => {
    core = openTestCore({ runJobs: false });
    const scans = [photo(), photo()];
    const bounds = scans.map((p) => found(p, 'exif', [scanBound(20000930)])[0]);
    const r = await call('evidence.reviewMany', { photoIds: scans, source: 'exif', status: 'accepted' });
    await call('evidence.review', { id: bounds[1], status: 'rejected' });
    expect(await refusal('history.undo', { actionId: r.action!.id })).toMatch(`a later action on photo ${scans[1]} comes first`);
    expect(bounds.map(status)).toEqual(['accepted', 'rejected']);
  });
});
